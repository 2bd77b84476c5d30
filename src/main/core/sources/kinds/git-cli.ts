// The user's `git`, run for the git source: execFile (never a shell), no prompt of any kind (no
// terminal: a new session; no askpass), a time limit, and the environment cleaned of what would
// point git at another repository (GIT_DIR and the like, set when Steward itself was started from a
// git hook). A failure is an Error in git's own words, with any password in a URL blotted out.
import { type ChildProcess, spawn } from 'node:child_process';

/** Variables that would make git read another repository than the one it is given. */
const repositoryVariables = ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_CEILING_DIRECTORIES', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT'];

export interface GitOptions {
  /** The folder git runs in (a repository, or Steward's mirror of a remote one). */
  cwd: string;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Configuration for this command only, passed through GIT_CONFIG_COUNT/KEY/VALUE so that no value (a token) shows in the process list. */
  config?: readonly (readonly [string, string])[];
  /** Exit codes that are answers, not failures (merge-base --is-ancestor answers 1 for no). */
  answers?: readonly number[];
}

export interface GitResult {
  stdout: string;
  code: number;
}

const defaultTimeoutMs = 60_000;

/** A URL's user and password, as git may print them in a message, blotted out. */
export const withoutPassword = (text: string): string => text.replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s'"]+@/gi, '$1…@');

function environment(config: GitOptions['config']): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GCM_INTERACTIVE: 'never', SSH_ASKPASS_REQUIRE: 'never' };
  // Whatever would ask someone (an editor's askpass socket, a GUI helper) is not there to answer.
  delete env.GIT_ASKPASS;
  for (const name of repositoryVariables) delete env[name];
  for (const name of Object.keys(env)) if (/^GIT_CONFIG_(KEY|VALUE)_\d+$/.test(name)) delete env[name];
  if (config && config.length > 0) {
    env.GIT_CONFIG_COUNT = String(config.length);
    config.forEach(([key, value], index) => {
      env[`GIT_CONFIG_KEY_${index}`] = key;
      env[`GIT_CONFIG_VALUE_${index}`] = value;
    });
  }
  return env;
}

/** What git said on stderr, shortened to its last meaningful lines (progress and hints left out). */
function wordsOf(stderr: string): string {
  const lines = withoutPassword(stderr)
    .split(/\r?\n|\r/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('hint:'));
  return lines.slice(-3).join(' ');
}

/** Ends git and whatever it started (ssh, a remote helper): its process group where there is one. */
function end(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  try {
    if (process.platform !== 'win32' && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    else child.kill('SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
}

const maxOutputBytes = 64 * 1024 * 1024;

/** Runs `git args` and gives its output; throws an Error with git's words (or why it did not answer). */
export function git(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  return new Promise((resolve, reject) => {
    if (options.signal.aborted) return reject(new Error('stopped'));
    // A session of its own: no terminal for ssh or git to ask on, and one group to end.
    const child = spawn('git', args, { cwd: options.cwd, env: environment(options.config), stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let why: string | undefined;
    const stop = (reason: string) => {
      why ??= reason;
      end(child);
    };
    const timer = setTimeout(() => stop(`git ${args[0]} did not finish within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    const onAbort = () => stop('stopped');
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxOutputBytes) stop(`git ${args[0]} said more than Steward reads`);
      else stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // The end is what tells why; a long progress report is not.
      stderr = (stderr + chunk.toString('utf8')).slice(-8192);
    });
    const finish = (error: Error | undefined, code: number | null) => {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (why !== undefined) return reject(new Error(why));
      if (error) return reject((error as NodeJS.ErrnoException).code === 'ENOENT' ? new Error('git is not installed (or not on the PATH Steward was started with): the git source runs your git') : error);
      const out = Buffer.concat(stdout).toString('utf8');
      if (code === 0 || (code !== null && options.answers?.includes(code))) return resolve({ stdout: out, code: code ?? 0 });
      reject(new Error(wordsOf(stderr) || `git ${args[0]} failed (exit code ${String(code)})`));
    };
    child.on('error', (error) => finish(error, null));
    child.on('close', (code) => finish(undefined, code));
  });
}
