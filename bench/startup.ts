// Startup: the built daemon on a data folder that already exists, in two forms: `node
// out/main/cli.js serve`, and the installed package (`npm pack`, `npm install -g` of the tarball
// into a temp prefix, `<prefix>/bin/steward serve`, as a server gets it), each against a bare `node
// -e` HTTP server in the same run, alternating: the time from spawning the process until GET
// /api/health answers 200, the CPU time it used until then (steadier than the wall time on a busy
// machine), and the resident memory (VmRSS) after 2 s idle. Its ratios to the bare server are the
// figures to compare: `installedReadyRatio` and `installedIdleRssRatio` are the guarded ones.
// BENCH_STARTUP_FORMS=out skips the installed form; BENCH_SECONDS (any value: the short mode of
// `bench:check`) makes it 3 starts of each instead of BENCH_STARTUP_RUNS (default 7).
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { builtCli as cli, ensureBuilt } from './built';
import { residentMB } from './measure';

const root = path.resolve(import.meta.dirname, '..');
const roundedMB = (mb: number | null): number | null => (mb === null ? null : Math.round(mb));
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? (process.env.BENCH_SECONDS ? 3 : 7));
const forms = (process.env.BENCH_STARTUP_FORMS ?? 'out,installed').split(',');
const idleMs = 2_000;
const bareServer = `require('node:http').createServer((q, r) => r.end('{"status":"ok"}')).listen(Number(process.argv[1]), '127.0.0.1')`;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const healthStatus = (port: number) =>
  new Promise<number>((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path: '/api/health', agent: false }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      })
      .on('error', () => resolve(0));
  });

function cpuMs(pid: number): number | null {
  try {
    // utime and stime, in clock ticks (100 per second on Linux), after the parenthesised name.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Sample {
  readyMs: number;
  cpuMs: number | null;
  idleRssMB: number | null;
}

/** How a form is started: the program and its arguments (the Node running this by default). */
type Command = (port: number) => { program?: string; args: string[] };

async function measure(command: Command): Promise<Sample> {
  const port = await freePort();
  const { program = process.execPath, args } = command(port);
  // The installed `steward` is run by the `node` on PATH: this one.
  const env = { ...process.env, STEWARD_LOG_LEVEL: 'warn', PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}` };
  const started = performance.now();
  const child = spawn(program, args, { stdio: 'ignore', env });
  try {
    while ((await healthStatus(port)) !== 200) {
      if (child.exitCode !== null) throw new Error(`${[program, ...args].join(' ')} exited (${child.exitCode}) before answering`);
      await sleep(5);
    }
    const readyMs = Math.round(performance.now() - started);
    const cpu = cpuMs(child.pid!);
    await sleep(idleMs);
    return { readyMs, cpuMs: cpu, idleRssMB: roundedMB(residentMB(child.pid!)) };
  } finally {
    await stop(child);
  }
}

function summary(samples: Sample[]) {
  const sorted = (values: (number | null)[]) => values.filter((value) => value !== null).sort((a, b) => a - b);
  const median = (values: number[]) => values[Math.floor(values.length / 2)] ?? null;
  const ready = sorted(samples.map((sample) => sample.readyMs));
  return {
    readyMs: { median: median(ready), min: ready[0], max: ready.at(-1) },
    cpuMsToReady: median(sorted(samples.map((sample) => sample.cpuMs))),
    idleRssMB: median(sorted(samples.map((sample) => sample.idleRssMB))),
  };
}

/**
 * The package installed as `npm install -g` of its tarball installs it, into `work`; its `steward`.
 * Install scripts are skipped and better-sqlite3's native binding is taken from this checkout (same
 * version, same Node), as the packaging test does: compiling SQLite again costs minutes.
 */
function install(work: string): string {
  const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, npm_config_update_notifier: 'false' } });
  const output = npm(['pack', '--json', '--pack-destination', work], root); // its prepack builds out/
  const [{ filename }] = JSON.parse(output.slice(output.search(/^\[/m))) as [{ filename: string }];
  const prefix = path.join(work, 'prefix');
  npm(['install', '--global', '--prefix', prefix, path.join(work, filename), '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'], work);
  const binding = 'build/Release/better_sqlite3.node';
  const installed = path.join(prefix, 'lib/node_modules/steward/node_modules/better-sqlite3', binding);
  fs.mkdirSync(path.dirname(installed), { recursive: true });
  fs.copyFileSync(path.join(root, 'node_modules/better-sqlite3', binding), installed);
  return path.join(prefix, 'bin/steward');
}

/** `steward` (a form) and the bare server, alternating, `runs` times each, on an existing data folder. */
async function compare(steward: Command, dataDir: string) {
  const setup = spawnSync(process.execPath, [cli, 'keys', 'list', '--data-dir', dataDir], { encoding: 'utf8' });
  if (setup.status !== 0) throw new Error(`steward keys list failed: ${setup.stderr}`);
  const ours: Sample[] = [];
  const bare: Sample[] = [];
  for (let i = 0; i < runs; i++) {
    ours.push(await measure(steward));
    bare.push(await measure((port) => ({ args: ['-e', bareServer, String(port)] })));
  }
  const result = { steward: summary(ours), bare: summary(bare) };
  const ratio = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null || b === 0 ? null : Math.round((a / b) * 100) / 100);
  return {
    ...result,
    readyRatio: ratio(result.steward.readyMs.median, result.bare.readyMs.median),
    cpuRatio: ratio(result.steward.cpuMsToReady, result.bare.cpuMsToReady),
    idleRssRatio: ratio(result.steward.idleRssMB, result.bare.idleRssMB),
    met: (result.steward.readyMs.median ?? Infinity) < targets.readyMsBelow && (result.steward.idleRssMB ?? 0) < targets.idleRssMBBelow,
  };
}

const targets = { readyMsBelow: 300, idleRssMBBelow: 80 };

export async function startupBench(): Promise<Record<string, unknown>> {
  ensureBuilt();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-startup-'));
  try {
    const result: Record<string, unknown> = { benchmark: 'startup', runs, targets, loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100) };
    if (forms.includes('out')) {
      const out = await compare((port) => ({ args: [cli, 'serve', '--port', String(port), '--data-dir', path.join(work, 'data-out')] }), path.join(work, 'data-out'));
      Object.assign(result, { out, outReadyRatio: out.readyRatio, outCpuRatio: out.cpuRatio, outIdleRssRatio: out.idleRssRatio });
    }
    if (forms.includes('installed')) {
      const bin = install(work);
      const installed = await compare((port) => ({ program: bin, args: ['serve', '--port', String(port), '--data-dir', path.join(work, 'data-installed')] }), path.join(work, 'data-installed'));
      Object.assign(result, { installed, installedReadyRatio: installed.readyRatio, installedCpuRatio: installed.cpuRatio, installedIdleRssRatio: installed.idleRssRatio });
    }
    return result;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
