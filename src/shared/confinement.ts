// Whether one instance is at least as confined as another: the rule that decides whether a run of
// `sender` may prompt `target` (acceptsPromptsFrom), so that no run reaches, through another
// instance, more than its own instance lets it. The core enforces it (run-key-reach.ts) and the
// instance form warns with it.
import type { Permissions, SandboxConfig } from './contract';

/** What confines an instance's runs: its sandbox, and whether its agent asks before acting. */
export interface Confined {
  sandbox: SandboxConfig;
  permissions: Pick<Permissions, 'mode'>;
}

/** `~/a/./b/../c/` → `~/a/c`: a path's segments, `.` and `..` applied, no trailing slash. */
function segments(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return path.startsWith('/') ? ['', ...out] : out;
}

/** `inner` is `outer` or inside it (`~/notes/a` inside `~/notes`); `~/x` and `/home/me/x` are not compared. */
function within(inner: string, outer: string): boolean {
  const [a, b] = [segments(inner), segments(outer)];
  return b.length <= a.length && b.every((part, index) => part === a[index]);
}

/** A network entry of the target's that the sender's list covers: the same entry, a `*.` wildcard over it, or `*` (names without a port). */
function hostCovered(entry: string, by: readonly string[]): boolean {
  const host = entry.toLowerCase();
  if (by.includes(host)) return true;
  // An entry with a port (a loopback port among them) is covered only by itself.
  if (/:\d+$/.test(host) || host.startsWith('[')) return false;
  return by.some((rule) => rule === '*' || (rule.startsWith('*.') && host.endsWith(rule.slice(1))));
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Sandbox fields this rule compares one by one; any other field must be the same on both sides. */
const compared = new Set(['mode', 'network', 'readDeny', 'writeAllow', 'envAllow']);

/**
 * Why `target` is less confined than `sender`, or undefined when it is at least as confined: a
 * sandboxed sender's target is sandboxed too, reaches no host the sender may not (each of its
 * `network` entries is one of the sender's, or under a `*.` or `*` of the sender's; a `host:port`
 * only by itself), writes no path the sender may not (`writeAllow` inside the sender's), hides every
 * path the sender's hides (`readDeny`), gets no variable of Steward's environment the sender does
 * not (`envAllow`), and any other sandbox setting is the same; a sender whose agent asks a person
 * before acting (`permissions: ask`) may prompt only a target that asks too. A sender that runs
 * `off` is confined by nothing, so any target is at least as confined.
 */
export function lessConfinedBy(target: Confined, sender: Confined): string | undefined {
  if (sender.permissions.mode === 'ask' && target.permissions.mode !== 'ask') return 'it acts without asking a person, and the sender asks';
  const [t, s] = [target.sandbox as SandboxConfig & Record<string, unknown>, sender.sandbox as SandboxConfig & Record<string, unknown>];
  if (s.mode === 'off') return undefined;
  if (t.mode !== 'sandbox') return 'it is not sandboxed, and the sender is';
  const host = t.network.find((entry) => !hostCovered(entry, s.network));
  if (host !== undefined) return `it may reach ${host}, and the sender may not`;
  const write = t.writeAllow.find((entry) => !s.writeAllow.some((outer) => within(entry, outer)));
  if (write !== undefined) return `it may write ${write}, and the sender may not`;
  const read = s.readDeny.find((entry) => !t.readDeny.some((outer) => within(entry, outer)));
  if (read !== undefined) return `it may read ${read}, which the sender may not`;
  const env = (t.envAllow ?? []).find((name) => !(s.envAllow ?? []).includes(name));
  if (env !== undefined) return `it gets ${env} from Steward's environment, and the sender does not`;
  const other = [...new Set([...Object.keys(t), ...Object.keys(s)])].find((key) => !compared.has(key) && !sameJson(t[key], s[key]));
  if (other !== undefined) return `its sandbox's ${other} differs from the sender's`;
  return undefined;
}

export const atLeastAsConfined = (target: Confined, sender: Confined): boolean => lessConfinedBy(target, sender) === undefined;
