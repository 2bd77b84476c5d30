// Startup: the built daemon (`node out/main/cli.js serve`, on a data folder that already exists)
// against a bare `node -e` HTTP server, in the same run, alternating: the time from spawning the
// process until GET /api/health answers 200, the CPU time it used until then (steadier than the
// wall time on a busy machine), and the resident memory (VmRSS) after 2 s idle.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = path.resolve(import.meta.dirname, '..');
const cli = path.join(root, 'out/main/cli.js');
const runs = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
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

// Linux's /proc; elsewhere these figures are null.
function residentMB(pid: number): number | null {
  try {
    const kB = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kB === undefined ? null : Math.round(Number(kB) / 1024);
  } catch {
    return null;
  }
}

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

async function measure(args: (port: number) => string[]): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), { stdio: 'ignore', env: { ...process.env, STEWARD_LOG_LEVEL: 'warn' } });
  try {
    while ((await healthStatus(port)) !== 200) {
      if (child.exitCode !== null) throw new Error(`${args(port).join(' ')} exited (${child.exitCode}) before answering`);
      await sleep(5);
    }
    const readyMs = Math.round(performance.now() - started);
    const cpu = cpuMs(child.pid!);
    await sleep(idleMs);
    return { readyMs, cpuMs: cpu, idleRssMB: residentMB(child.pid!) };
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

export async function startupBench(): Promise<Record<string, unknown>> {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-startup-'));
  try {
    // The measured starts open an existing database, as every start after the first does.
    const setup = spawnSync(process.execPath, [cli, 'keys', 'list', '--data-dir', dataDir], { encoding: 'utf8' });
    if (setup.status !== 0) throw new Error(`steward keys list failed: ${setup.stderr}`);
    const steward: Sample[] = [];
    const bare: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      steward.push(await measure((port) => [cli, 'serve', '--port', String(port), '--data-dir', dataDir]));
      bare.push(await measure((port) => ['-e', bareServer, String(port)]));
    }
    const result = { steward: summary(steward), bare: summary(bare) };
    const ready = result.steward.readyMs.median ?? Infinity;
    const rss = result.steward.idleRssMB;
    return {
      benchmark: 'startup',
      runs,
      ...result,
      targets: { readyMsBelow: 500, idleRssMBBelow: 80 },
      met: ready < 500 && (rss === null || rss < 80),
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
