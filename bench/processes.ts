// Starting and stopping the servers a benchmark measures, each in its own process.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'src/main/cli.ts');

export interface Server {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = pattern.exec(seen);
      if (match) {
        child.stdout?.off('data', onData);
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before printing ${pattern}: ${seen}`)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
}

/** Runs the steward CLI to completion and returns its stdout. */
export function runCli(args: string[]): string {
  const result = spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`steward ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/** The real daemon, `steward serve`, on a free port. */
export async function startDaemon(dataDir: string): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', '--port', '0', '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, STEWARD_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const match = await waitForLine(child, /listening on (http:\/\/\S+)/);
  return { url: match[1]!, process: child, stop: stopper(child) };
}

export async function startBareServer(): Promise<Server> {
  const child = spawn(process.execPath, [path.join(root, 'bench/bare-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const match = await waitForLine(child, /^(\d+)\n/);
  return { url: `http://127.0.0.1:${match[1]}`, process: child, stop: stopper(child) };
}
