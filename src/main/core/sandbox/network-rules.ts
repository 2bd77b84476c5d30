// Which hosts a sandboxed run may reach: rules written as the instance's `network` takes them
// (`api.example.com`, `*.github.com`, `*`, `host:port`), matched against a host and port. Loopback
// is the machine's own services (Steward, a model server, a database): it is reached only where a
// rule names the loopback host and its port, never through a wildcard.
import net from 'node:net';
import { isLoopback } from '../../../shared/loopback';

export { isLoopback };

export interface NetworkRule {
  /** Lower case, without brackets; `*` for any host, `*.example.com` for its subdomains. */
  host: string;
  /** undefined: any port. */
  port: number | undefined;
}

/** `host`, `host:port`, `[v6]:port`, or a URL's host and port (a URL without a port gets its scheme's). */
export function parseRule(text: string): NetworkRule | undefined {
  const value = text.trim().toLowerCase();
  if (value === '') return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(value)) {
    try {
      const url = new URL(value);
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : url.protocol === 'http:' ? 80 : undefined;
      return { host: url.hostname.replace(/^\[|\]$/g, ''), port };
    } catch {
      return undefined;
    }
  }
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  if (net.isIPv6(value)) return { host: value, port: undefined };
  const [host, port, extra] = value.split(':');
  if (!host || extra !== undefined || (port !== undefined && !/^\d+$/.test(port))) return undefined;
  return { host, port: port === undefined ? undefined : Number(port) };
}

function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return pattern === host;
}

/** Whether `rules` let a run connect to host:port. */
export function allows(rules: readonly NetworkRule[], host: string, port: number): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  const loopback = isLoopback(bare);
  return rules.some((rule) => {
    if (rule.port !== undefined && rule.port !== port) return false;
    // Loopback only by its own name and port: `*` or a port-less rule never opens the machine's services.
    if (loopback) return rule.port !== undefined && isLoopback(rule.host) && (rule.host === bare || bothLocal(rule.host, bare));
    return hostMatches(rule.host, bare);
  });
}

/** localhost, 127.0.0.1 and ::1 name the same services. */
const bothLocal = (a: string, b: string): boolean => [a, b].every((each) => each === 'localhost' || each === '127.0.0.1' || each === '::1');

/** The loopback ports the rules name: inside the sandbox each is bridged to the machine's own. */
export function loopbackPorts(rules: readonly NetworkRule[]): number[] {
  return [...new Set(rules.filter((rule) => rule.port !== undefined && isLoopback(rule.host)).map((rule) => rule.port!))].sort((a, b) => a - b);
}

/** An address a name resolved to that a name-based rule must not open: the machine itself, or link-local (cloud metadata). */
export function forbiddenResolution(address: string): boolean {
  if (isLoopback(address)) return true;
  if (net.isIPv4(address)) return address.startsWith('169.254.') || address.startsWith('0.');
  const lower = address.toLowerCase();
  return lower.startsWith('fe80:') || lower.startsWith('::ffff:169.254.');
}

