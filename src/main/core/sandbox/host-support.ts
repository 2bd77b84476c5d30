// Whether this machine can sandbox, and with what: bubblewrap and socat on Linux (and a kernel that
// lets bubblewrap make its namespaces unprivileged, under Steward's seccomp filter, tried for real),
// Seatbelt's sandbox-exec on macOS. When it cannot, the reason comes with the remedy; a sandboxed
// instance is then in error, never open. On Linux it also finds how a run's limits are held.
import { spawn } from 'node:child_process';
import { findExecutable } from '../agents/find-executable';
import { sandboxIdentity, seccompFd, unprivilegedArgs } from './bubblewrap';
import { type LimitsMechanism, findLimitsMechanism, limitsWords } from './limits';
import { type SeccompArch, seccompArch, seccompFilter } from './seccomp';

export type SandboxSupport =
  | { ok: true; tool: string; bwrap?: string; socat?: string; seccomp?: SeccompArch; disableUserns?: boolean; limits?: LimitsMechanism }
  | { ok: false; reason: string };

/** What runs a sandbox here, as imageTag says it: "bubblewrap 0.8.0, limits by cgroup v1", "Seatbelt". */
export function sandboxWords(support: Extract<SandboxSupport, { ok: true }>): string {
  return support.limits ? `${support.tool}, ${limitsWords(support.limits)}` : support.tool;
}

const offRemedy = 'or set the instance\'s sandbox to "off" to run its agent as you, unsandboxed';

let known: SandboxSupport | undefined;

/** Runs `file args` with `input` on its standard input, for at most 10 s. */
function run(file: string, args: string[], input?: Buffer): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'], timeout: 10_000 });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('error', (error) => resolve({ code: 1, output: error.message }));
    child.on('close', (code) => resolve({ code: code ?? 1, output: output.trim() }));
  });
}

/** Where the system's own programs are, whatever PATH Steward was started with. */
const systemPath = () => [process.env.PATH, '/usr/local/bin', '/usr/bin', '/bin'].filter(Boolean).join(':');

async function checkLinux(searchPath: string): Promise<SandboxSupport> {
  const bwrap = findExecutable('bwrap', searchPath);
  const socat = findExecutable('socat', searchPath);
  const missing = [!bwrap && 'bubblewrap', !socat && 'socat'].filter(Boolean);
  if (!bwrap || !socat) {
    return { ok: false, reason: `This machine cannot sandbox: ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not installed. Install ${missing.length > 1 ? 'them' : 'it'} (apt-get install bubblewrap socat, dnf install bubblewrap socat), ${offRemedy}.` };
  }
  const arch = seccompArch();
  if (!arch) return { ok: false, reason: `Steward's seccomp filter knows x86_64 and aarch64, not ${process.arch}, ${offRemedy}.` };
  const disableUserns = (await run(bwrap, ['--help'])).output.includes('--disable-userns');
  // The sandbox as every run gets it: unprivileged, without user namespaces, a sized /tmp, the filter loaded (from stdin here).
  const identity = { ...sandboxIdentity(), disableUserns };
  const trialArgs = [bwrap, '--die-with-parent', ...unprivilegedArgs(identity), '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--size', '1048576', '--tmpfs', '/tmp', '/bin/sh', '-c', 'exit 0'];
  const trial = await run('/bin/sh', ['-c', `exec "$@" ${seccompFd}<&0`, 'steward-sandbox-check', ...trialArgs], seccompFilter(arch));
  if (trial.code !== 0) {
    const said = trial.output.split('\n').at(-1) || `exit ${trial.code}`;
    return { ok: false, reason: `bubblewrap cannot make a sandbox here (${said}): the kernel must allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0) and seccomp filters, and bubblewrap must be 0.5.0 or later (for --size), ${offRemedy}.` };
  }
  const version = /\d+\.\d+(\.\d+)?/.exec((await run(bwrap, ['--version'])).output)?.[0] ?? 'unknown';
  return { ok: true, tool: `bubblewrap ${version}`, bwrap, socat, seccomp: arch, disableUserns, limits: findLimitsMechanism() };
}

/** Whether this machine can sandbox, finding its programs on `searchPath`. */
export async function checkSandboxSupport(searchPath = systemPath()): Promise<SandboxSupport> {
  if (process.platform === 'linux') return checkLinux(searchPath);
  if (process.platform === 'darwin') {
    return findExecutable('sandbox-exec', '/usr/bin') ? { ok: true, tool: 'Seatbelt' } : { ok: false, reason: `sandbox-exec was not found in /usr/bin, ${offRemedy}.` };
  }
  return { ok: false, reason: `Steward cannot sandbox agents on ${process.platform} yet, ${offRemedy}.` };
}

/** What sandboxes here; a success is remembered, a failure asked again (the user may have installed what was missing). */
export async function sandboxSupport(): Promise<SandboxSupport> {
  if (known?.ok) return known;
  known = await checkSandboxSupport();
  return known;
}
