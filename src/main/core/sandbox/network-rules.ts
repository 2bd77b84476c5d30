// Which hosts a sandboxed run may reach: rules written as the instance's `network` takes them
// (`api.example.com`, `*.github.com`, `*`, `host:port`), and the one decision every way out takes
// (`verdict`): a host and port, and the address it resolved to, become "dial this address", "this is
// Steward: serve /mcp alone", or a refusal with the entry that would allow it, if any would.
//
// Addresses are parsed and classified (addresses.ts), never matched as text:
// - this machine (loopback, unspecified, its own interface addresses) is reached only at a port a
//   rule names with a loopback host (`127.0.0.1:8080`, `localhost:8080`, `[::1]:8080`), whatever
//   spelling the run uses; Steward's own port is served /mcp alone, however it is reached;
// - link-local (cloud metadata) and unroutable addresses are never reached;
// - a local network's addresses are reached by a rule that names the host (or address), never by `*`;
// - the internet by any rule that matches: `*` included.
import { type Address, addressEntry, bareHost, isLocalhostName, namesThisMachine, parseAddress } from '../../../shared/addresses';
import { destinationOf } from './addresses';

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
      return { host: bareHost(url.hostname), port };
    } catch {
      return undefined;
    }
  }
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d+))?$/.exec(value);
  if (bracketed) return { host: bracketed[1], port: bracketed[2] === undefined ? undefined : Number(bracketed[2]) };
  if (parseAddress(value)?.kind() === 'ipv6') return { host: value, port: undefined };
  const [host, port, extra] = value.split(':');
  if (!host || extra !== undefined || (port !== undefined && !/^\d+$/.test(port))) return undefined;
  return { host: bareHost(host), port: port === undefined ? undefined : Number(port) };
}

/** The ports of this machine the rules open: those named with a loopback host (inside the sandbox each is bridged to the machine's own). */
export function loopbackPorts(rules: readonly NetworkRule[]): number[] {
  return [...new Set(rules.filter((rule) => rule.port !== undefined && namesThisMachine(rule.host)).map((rule) => rule.port!))].sort((a, b) => a - b);
}

const portMatches = (rule: NetworkRule, port: number) => rule.port === undefined || rule.port === port;

/** A rule's host pattern against a name (not an address): `*`, `*.example.com`, or the name itself. */
function nameMatches(rule: NetworkRule, name: string): boolean {
  if (rule.host === '*') return true;
  if (rule.host.startsWith('*.')) return name.endsWith(rule.host.slice(1)) && name.length > rule.host.length - 1;
  return rule.host === name && ruleAddress(rule) === undefined;
}

const sameAddress = (a: Address, b: Address) => a.kind() === b.kind() && a.toNormalizedString() === b.toNormalizedString();

/** Each rule's host as an address (null: a name), parsed once: a proxy asks for every connection. */
const ruleAddresses = new WeakMap<NetworkRule, Address | null>();
function ruleAddress(rule: NetworkRule): Address | undefined {
  let parsed = ruleAddresses.get(rule);
  if (parsed === undefined) ruleAddresses.set(rule, (parsed = parseAddress(rule.host) ?? null));
  return parsed ?? undefined;
}

/** A rule's host against an address the run named as such: `*`, or the same address in any spelling. */
function addressMatches(rule: NetworkRule, address: Address): boolean {
  if (rule.host === '*') return true;
  const ruled = ruleAddress(rule);
  return ruled !== undefined && sameAddress(ruled, address);
}

/** A rule against a host as the run wrote it: by address when it is one, else by name. */
function hostMatches(rule: NetworkRule, host: string): boolean {
  const address = parseAddress(host);
  return address ? addressMatches(rule, address) : nameMatches(rule, bareHost(host));
}

/** A host and port a run asked for. */
export interface Request {
  /** As the run wrote it (a name, or an address in any spelling, with or without brackets). */
  host: string;
  port: number;
}

export interface Reach {
  rules: readonly NetworkRule[];
  /** Refused by name whatever `rules` say: Steward's public trigger URL. */
  refused?: readonly NetworkRule[] | undefined;
  /** Steward's own port: on this machine, only /mcp is served through it. */
  stewardPort?: number | undefined;
}

export type Verdict =
  /** Connect to this address (the one that was checked: no second lookup). */
  | { to: 'address'; address: string }
  /** Steward's own port on this machine: serve /mcp alone. */
  | { to: 'steward' }
  /** Why not, and the network entry that would allow it (none when nothing would). */
  | { refused: string; allow?: string };

const notListed = "it is not in this instance's network list";

/** The entry that opens `host` (a name, or an address's entry) at `port`: the host alone, or with the port where the list already names the host with others. */
function entryFor(host: string, port: number, rules: readonly NetworkRule[]): string {
  const address = parseAddress(host);
  const named = rules.some((rule) => rule.port !== undefined && (address ? ruleAddress(rule) !== undefined && sameAddress(ruleAddress(rule)!, address) : rule.host === host));
  return named ? `${host}:${port}` : host;
}

/** Before any lookup: the verdicts that a name alone decides, or undefined when its addresses must decide. */
export function nameVerdict(request: Request, reach: Reach): Verdict | undefined {
  const name = bareHost(request.host);
  if ((reach.refused ?? []).some((rule) => portMatches(rule, request.port) && hostMatches(rule, name))) {
    return { refused: "it is Steward's own trigger listener, which a run reaches only through Steward's tools (/mcp)" };
  }
  const literal = parseAddress(name);
  if (literal) return verdict(request, literal, reach);
  // localhost is this machine without asking DNS.
  if (isLocalhostName(name)) return verdict(request, parseAddress('127.0.0.1')!, reach);
  if (!reach.rules.some((rule) => portMatches(rule, request.port) && nameMatches(rule, name))) return { refused: notListed, allow: entryFor(name, request.port, reach.rules) };
  return undefined;
}

/** The decision for one address the request leads to (its literal address, or one its name resolved to). */
export function verdict(request: Request, address: Address, reach: Reach): Verdict {
  const host = bareHost(request.host);
  // A name other than localhost resolved to `address`: the rules match the name, and the reason names the address.
  const name = parseAddress(host) || isLocalhostName(host) ? undefined : host;
  const it = name === undefined ? 'it is' : `it resolves to ${address.toString()}:`;
  const { port } = request;
  const listed = (rule: NetworkRule) => portMatches(rule, port) && (name === undefined ? addressMatches(rule, address) : nameMatches(rule, name));
  switch (destinationOf(address)) {
    case 'this machine': {
      const opened = loopbackPorts(reach.rules).includes(port);
      if (port === reach.stewardPort) {
        return opened ? { to: 'steward' } : { refused: `${it} Steward's own port, which only a run with Steward's tools reaches, and only at /mcp` };
      }
      if (opened) return { to: 'address', address: address.toString() };
      return { refused: `${it} this machine, whose services a run reaches only at a port its network list names (127.0.0.1:port)`, allow: `127.0.0.1:${port}` };
    }
    case 'link-local':
      return { refused: `${it} a link-local address (cloud metadata among them), which a sandbox never reaches` };
    case 'unroutable':
      return { refused: `${it} a multicast or broadcast address, which no connection goes to` };
    case 'private': {
      const matching = reach.rules.filter(listed);
      if (matching.some((rule) => rule.host !== '*')) return { to: 'address', address: address.toString() };
      const allow = entryFor(name ?? addressEntry(address), port, reach.rules);
      return matching.length > 0 ? { refused: `${it} a local-network address, which * does not open (it opens the internet)`, allow } : { refused: notListed, allow };
    }
    case 'public':
      return reach.rules.some(listed) ? { to: 'address', address: address.toString() } : { refused: notListed, allow: entryFor(name ?? addressEntry(address), port, reach.rules) };
  }
}
