// The files tools' reads and writes for a sandboxed run, done by a small process inside the run's
// sandbox: the sandbox decides what the tool sees and changes, as it does for the agent's own shell
// (the user's readDeny, what it hides inside the workspace, what is read-only), and a FIFO or a
// stuck disk holds that process, never Steward. It is ended after a timeout like any tool command.
import { spawn } from 'node:child_process';
import type { SandboxRun } from '../../sandbox/sandbox-run';
import { ToolError } from './tool';

const timeoutMs = 30_000;
/** What the process gets: coreutils, nothing of Steward's environment. */
const env = { PATH: '/usr/bin:/bin', LC_ALL: 'C' };

const scripts = {
  // Exit 2: not there; 3: there but not a regular file (or folder, for list).
  read: 'if [ ! -e "$1" ]; then exit 2; elif [ ! -f "$1" ]; then exit 3; fi; exec head -c "$2" -- "$1"',
  write: 'if [ -e "$1" ] || [ -L "$1" ]; then [ -f "$1" ] || exit 3; fi; mkdir -p -- "$(dirname -- "$1")" && exec cat > "$1"',
  list: 'if [ ! -e "$1" ]; then exit 2; elif [ ! -d "$1" ]; then exit 3; fi; cd -- "$1" && exec ls -1Ap',
};

interface Inside {
  sandbox: SandboxRun;
  workspaceDir: string;
  signal: AbortSignal;
}

function runInside(where: Inside, script: string, args: string[], stdin: string, maxBytes: number): Promise<{ code: number | null; stdout: Buffer; stderr: string; stopped: string }> {
  const started = where.sandbox.wrap('/bin/sh', ['-c', script, 'steward-files', ...args], env);
  return new Promise((resolve) => {
    const child = spawn(started.command, started.args, { cwd: where.workspaceDir, env: started.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = '';
    let stopped = '';
    const stop = (why: string) => {
      stopped ||= why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      if (outBytes <= maxBytes) out.push(chunk);
      outBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
    const timer = setTimeout(() => stop(`it took longer than ${timeoutMs / 1000} s`), timeoutMs);
    const onAbort = () => stop('the run ended');
    where.signal.addEventListener('abort', onAbort, { once: true });
    const done = (code: number | null) => {
      clearTimeout(timer);
      where.signal.removeEventListener('abort', onAbort);
      resolve({ code, stdout: Buffer.concat(out), stderr, stopped });
    };
    child.on('error', (error) => {
      stderr = error.message;
      done(null);
    });
    child.on('close', done);
  });
}

/** The tool's error for a process that did not succeed. */
function failure(shown: string, result: { code: number | null; stderr: string; stopped: string }, what: 'file' | 'folder'): ToolError {
  if (result.stopped) return new ToolError(`${shown} could not be used: ${result.stopped}.`);
  if (result.code === 2) return new ToolError(`${shown} does not exist.`);
  if (result.code === 3) return new ToolError(`${shown} is not a ${what === 'file' ? 'regular file' : 'folder'}.`);
  const said = result.stderr.trim().split('\n').at(-1)?.replace(/^[^:]*: /, '') ?? '';
  return new ToolError(`${shown} could not be used${said ? `: ${said}` : ''}.`);
}

/** Its first `maxBytes`, and whether there was more. */
export async function readInside(where: Inside, file: string, shown: string, maxBytes: number): Promise<{ bytes: Buffer; more: boolean }> {
  const result = await runInside(where, scripts.read, [file, String(maxBytes + 1)], '', maxBytes + 1);
  if (result.code !== 0 || result.stopped) throw failure(shown, result, 'file');
  return { bytes: result.stdout.subarray(0, maxBytes), more: result.stdout.length > maxBytes };
}

export async function writeInside(where: Inside, file: string, shown: string, content: string): Promise<void> {
  const result = await runInside(where, scripts.write, [file], content, 0);
  if (result.code !== 0 || result.stopped) throw failure(shown, result, 'file');
}

/** The folder's entries, folders ending with `/`. */
export async function listInside(where: Inside, folder: string, shown: string): Promise<string[]> {
  const result = await runInside(where, scripts.list, [folder], '', 16 * 1024 * 1024);
  if (result.code !== 0 || result.stopped) throw failure(shown, result, 'folder');
  return result.stdout.toString('utf8').split('\n').filter(Boolean);
}
