// Real processes for tests and benchmarks: the steward CLI, the daemon, the bare baseline server.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'src/main/cli.ts');
const builtCli = path.join(root, 'out/main/cli.js');

export interface Server {
  url: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output(): { stdout: string; stderr: string };
  stop(): Promise<void>;
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  const seen = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk: Buffer) => (seen.stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (seen.stderr += chunk.toString()));
  return () => ({ ...seen });
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

/** Runs the steward CLI to completion; `input` is written to its stdin (closed at once without it). */
export function cliResult(args: string[], env: NodeJS.ProcessEnv = {}, input?: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, input });
}

/** Runs the steward CLI to completion and returns its stdout; throws when it fails. */
export function runCli(args: string[]): string {
  const result = cliResult(args);
  if (result.status !== 0) throw new Error(`steward ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

/**
 * The real daemon, `steward serve`, on a free port unless the arguments say otherwise; `built`
 * runs out/main/cli.js (as installed; the caller builds it) instead of the sources through tsx.
 */
export async function startDaemon(dataDir: string, args: string[] = ['--port', '0'], env: NodeJS.ProcessEnv = {}, { built = false, nodeArgs = [] as string[] } = {}): Promise<Server> {
  const entry = built ? [builtCli] : ['--import', 'tsx', cli];
  const child = spawn(process.execPath, [...nodeArgs, ...entry, 'serve', ...args, '--data-dir', dataDir], {
    cwd: root,
    env: { ...process.env, STEWARD_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  const match = await waitForLine(child, /listening on (http:\/\/\S+)/);
  return { url: match[1], process: child, output, stop: stopper(child) };
}

/** A baseline server of bench/ (bare-server.mjs, fastify-insert.mjs), which prints its port. */
export async function startBareServer(script = 'bare-server.mjs', args: string[] = []): Promise<Server> {
  const child = spawn(process.execPath, [path.join(root, 'bench', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const output = collect(child);
  const match = await waitForLine(child, /^(\d+)\n/);
  return { url: `http://127.0.0.1:${match[1]}`, process: child, output, stop: stopper(child) };
}

/** Processes started for a run, wherever they went (its agent and theirs carry STEWARD_RUN_ID). Linux only. */
export function processesOfRun(runId: string): number[] {
  const found: number[] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(path.join('/proc', pid, 'environ'), 'latin1').split('\0').includes(`STEWARD_RUN_ID=${runId}`)) found.push(Number(pid));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}
