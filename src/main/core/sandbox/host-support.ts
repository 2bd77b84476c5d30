// Whether this machine can sandbox, and with what: bubblewrap and socat on Linux (and a kernel that
// lets bubblewrap make its namespaces, tried for real), Seatbelt's sandbox-exec on macOS. When it
// cannot, the reason comes with the remedy; a sandboxed instance is then in error, never open.
import { execFile } from 'node:child_process';
import { findExecutable } from '../agents/find-executable';

export type SandboxSupport = { ok: true; tool: string; bwrap?: string; socat?: string } | { ok: false; reason: string };

const offRemedy = 'or set the instance\'s sandbox to "off" to run its agent as you, unsandboxed';

let known: SandboxSupport | undefined;

function run(file: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}`.trim() });
    });
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
  const trial = await run(bwrap, ['--die-with-parent', '--unshare-all', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '/bin/sh', '-c', 'exit 0']);
  if (trial.code !== 0) {
    const said = trial.output.split('\n').at(-1) || `exit ${trial.code}`;
    return { ok: false, reason: `bubblewrap cannot make a sandbox here (${said}): the kernel must allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu, kernel.apparmor_restrict_unprivileged_userns=0), ${offRemedy}.` };
  }
  const version = /\d+\.\d+(\.\d+)?/.exec((await run(bwrap, ['--version'])).output)?.[0] ?? 'unknown';
  return { ok: true, tool: `bubblewrap ${version}`, bwrap, socat };
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
