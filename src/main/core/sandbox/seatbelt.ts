// A sandbox policy as a Seatbelt profile (macOS, run with `sandbox-exec -p`). The system may be read,
// but not where people's files are (/Users, /Volumes, the home folder: hidden in the policy on
// macOS) except what the run is given back; only the writable paths (and the run's private
// temporary folder) may be written, and in them not the protected startup files, which may not be
// created either, nor the folders on their way be moved. The network is loopback alone: the proxy's
// port and the loopback ports the rules name. Later rules win over earlier ones, so path rules go
// in the order bwrap mounts them (mount-plan.ts): parents first, and at one path the hiding, then
// what may be read, then written, then the protections, then the user's denials.
import path from 'node:path';
import { depth, isStrictlyUnder } from './paths';
import type { SandboxPolicy } from './policy';

/** A string as SBPL writes it. */
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** macOS reaches /tmp, /var and /etc through /private: a rule names both. */
function spellings(file: string): string[] {
  const privateForm = /^\/(tmp|var|etc)(\/|$)/.test(file) ? [`/private${file}`] : [];
  return [file, ...privateForm];
}

const filters = (kind: 'subpath' | 'literal', files: string[]) => files.flatMap(spellings).map((file) => `(${kind} ${quoted(file)})`).join(' ');

type Rule = { path: string; kind: 'hide' | 'read' | 'link' | 'write' | 'protect' | 'deny' };
const order: Record<Rule['kind'], number> = { hide: 0, read: 1, link: 1, write: 2, protect: 3, deny: 4 };

function ruleLines(rule: Rule, policy: SandboxPolicy): string[] {
  const at = filters('subpath', [rule.path]);
  switch (rule.kind) {
    case 'hide':
    case 'deny':
      return [`(deny file-read* file-write* ${at})`];
    case 'read':
      // Inside a writable folder, a read-only one takes the writes back.
      return [`(allow file-read* ${at})`, `(deny file-write* ${at})`];
    case 'link':
      // A link on the way to the CLI (~/.nvm/…/bin/claude) is read itself, where the home is hidden.
      return [`(allow file-read* ${filters('literal', [rule.path])})`];
    case 'write':
      return [`(allow file-read* file-write* ${at})`];
    case 'protect': {
      // The folders on its way, its writable folder included, may not be moved or removed (a moved
      // `.git` would take its hooks out from under the rule) nor made again.
      const entry = policy.protected.find((each) => each.path === rule.path)!;
      const onTheWay = [entry.root];
      for (let folder = path.dirname(entry.path); isStrictlyUnder(folder, entry.root); folder = path.dirname(folder)) onTheWay.push(folder);
      return [`(deny file-write* ${at})`, `(deny file-write-unlink file-write-create ${filters('literal', onTheWay)})`];
    }
  }
}

export function seatbeltProfile(policy: SandboxPolicy, options: { tmpDir: string; proxyPort: number | undefined; ports: number[] }): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read*)',
  ];
  const rules: Rule[] = [
    ...policy.hidden.map((file): Rule => ({ path: file, kind: 'hide' })),
    ...policy.readable.map((file): Rule => ({ path: file, kind: 'read' })),
    ...policy.links.map((link): Rule => ({ path: link.path, kind: 'link' })),
    ...[...policy.writable, options.tmpDir].map((file): Rule => ({ path: file, kind: 'write' })),
    ...policy.protected.map((entry): Rule => ({ path: entry.path, kind: 'protect' })),
    ...policy.denied.map((file): Rule => ({ path: file, kind: 'deny' })),
  ].sort((a, b) => depth(a.path) - depth(b.path) || order[a.kind] - order[b.kind]);
  for (const rule of rules) lines.push(...ruleLines(rule, policy));
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))');
  const ports = [...(options.proxyPort === undefined ? [] : [options.proxyPort]), ...options.ports];
  for (const port of ports) lines.push(`(allow network-outbound (remote ip ${quoted(`localhost:${port}`)}))`);
  return `${lines.join('\n')}\n`;
}
