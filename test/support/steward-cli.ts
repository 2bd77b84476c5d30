// The steward CLI as a user runs it, for the configuration tests: a child process that does not
// block the test's own event loop (a daemon it talks to is another process, but the test also
// polls and kills while a command runs), an admin key made on a data folder, and plain API calls.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { type ApiResponse, request } from './temp';
import { root, runCli } from './processes';

export interface CliOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `steward ARGS` from the sources (as test/cli does), to completion; `input` is its standard input
 * (closed at once without it). Nothing of the developer's environment decides: no key, port or
 * data folder comes from it unless `env` says so.
 */
export function steward(args: string[], env: NodeJS.ProcessEnv = {}, input?: string): Promise<CliOutcome> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main/cli.ts'), ...args], {
    cwd: root,
    env: { ...process.env, STEWARD_API_KEY: '', STEWARD_REMOTE_KEY: '', STEWARD_PORT: '', STEWARD_DATA_DIR: '', STEWARD_LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input ?? '');
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A new admin API key on a data folder no daemon serves yet (the key is the last line printed). */
export const adminKeyOf = (dataDir: string): string => runCli(['keys', 'create', '--name', 'config-test', '--data-dir', dataDir]).trim().split('\n').at(-1)!;

/** Calls on a daemon's API with its key; the body as JSON. */
export function apiOf(url: string, key: string) {
  return (method: string, route: string, body?: unknown): Promise<ApiResponse> =>
    request(url + route, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** A daemon's whole export as one text, file by file (path, then text): two are equal only if every file is. */
export async function exportText(api: ReturnType<typeof apiOf>): Promise<string> {
  const answer = await api('GET', '/api/config/export');
  if (answer.status !== 200) throw new Error(`export answered ${answer.status}: ${answer.text}`);
  return (answer.body.files as { path: string; text: string }[]).map((file) => `# ${file.path}\n${file.text}`).join('');
}
