// A sandbox policy as a Seatbelt profile (macOS, run with `sandbox-exec -p`). Everything may be
// read but the hidden paths; only the writable ones (and the run's private temporary folder) may be
// written; the network is loopback alone: the proxy's port and the loopback ports the rules name.
// Later rules win over earlier ones, so each deny follows the allow it narrows.
import type { SandboxPolicy } from './policy';

/** A string as SBPL writes it. */
const quoted = (value: string) => `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/** macOS reaches /tmp and /var through /private: a rule names both. */
function spellings(file: string): string[] {
  const privateForm = /^\/(tmp|var|etc)(\/|$)/.test(file) ? [`/private${file}`] : [];
  return [file, ...privateForm];
}

const subpaths = (files: string[]) => files.flatMap(spellings).map((file) => `(subpath ${quoted(file)})`).join(' ');

export function seatbeltProfile(policy: SandboxPolicy, options: { tmpDir: string; proxyPort: number | undefined; ports: number[] }): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read mach-lookup ipc-posix-shm iokit-open)',
    '(allow file-read*)',
  ];
  const hidden = [...policy.hidden, ...policy.denied];
  if (hidden.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(hidden)})`);
  lines.push(`(allow file-read* file-write* ${subpaths([...policy.writable.filter((file) => !policy.denied.includes(file)), options.tmpDir])})`);
  if (policy.denied.length > 0) lines.push(`(deny file-read* file-write* ${subpaths(policy.denied)})`);
  lines.push('(allow file-write* (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))');
  const ports = [...(options.proxyPort === undefined ? [] : [options.proxyPort]), ...options.ports];
  for (const port of ports) lines.push(`(allow network-outbound (remote ip ${quoted(`localhost:${port}`)}))`);
  return `${lines.join('\n')}\n`;
}
