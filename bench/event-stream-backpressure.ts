// Event streams that never read: the daemon (`steward serve`, a child process) side by side in three
// phases: idle; 3 runs printing 10,000 lines each with one reader that keeps up (the baseline under
// load); the same runs while 50 more clients hold GET /api/events open without reading a byte.
// Resident memory (VmRSS, sampled) and /api/health latency in each. The stalled readers should be
// closed instead of growing the daemon; the reader that keeps up should be kept.
// Targets: peak memory within 150 MB of idle, health median within 20 ms.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCli, startDaemon } from '../test/support/processes';
import { healthMs, residentMB } from './measure';

const stalledReaders = Number(process.env.BENCH_STALLED_READERS ?? 50);
const runs = 3;
const linesPerRun = Number(process.env.BENCH_LINES_PER_RUN ?? 10_000);
const idleMs = 3_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
const round = (value: number) => Math.round(value * 10) / 10;

const rss = (pid: number): number => residentMB(pid) ?? Number.NaN;

/** Samples memory and health latency every 100 ms until `done` resolves. */
async function sample(pid: number, port: number, done: Promise<unknown>): Promise<{ peakRssMB: number; health: number[] }> {
  let finished = false;
  void done.finally(() => (finished = true));
  let peakRssMB = rss(pid);
  const health: number[] = [];
  while (!finished) {
    health.push(await healthMs(port));
    peakRssMB = Math.max(peakRssMB, rss(pid));
    await sleep(100);
  }
  return { peakRssMB, health };
}

/** A reader that connects, reads the response head, then never reads again. */
function stalledReader(port: number, key: string): Promise<{ socket: net.Socket; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`));
    const closed = new Promise<void>((settle) => socket.once('close', () => settle()));
    socket.on('error', () => undefined);
    socket.once('data', () => {
      socket.pause();
      resolve({ socket, closed });
    });
    socket.once('close', () => reject(new Error('a reader was closed before it was answered')));
  });
}

/**
 * Reads what a stalled reader was sent, until the daemon closes it or 45 s pass: whether the daemon
 * closed it. (Its `overflow` event may never reach it: a reader that takes nothing for 2 s after it
 * is destroyed with the rest of its backlog.)
 */
async function closedByDaemon(socket: net.Socket, closed: Promise<void>): Promise<boolean> {
  socket.on('data', () => undefined);
  socket.resume();
  const byDaemon = await Promise.race([closed.then(() => true), sleep(45_000).then(() => false)]);
  socket.destroy();
  return byDaemon;
}

/** A reader that keeps up; resolves with whether it was sent `overflow`. */
function healthyReader(port: number, key: string): { overflowed: () => boolean; stop: () => void } {
  let text = '';
  let overflowed = false;
  const request = http.get({ host: '127.0.0.1', port, path: '/api/events', agent: false, headers: { authorization: `Bearer ${key}` } }, (response) => {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      text = (text + chunk).slice(-64);
      if (text.includes('event: overflow')) overflowed = true;
    });
  });
  request.on('error', () => undefined);
  return { overflowed: () => overflowed, stop: () => request.destroy() };
}

interface Answer {
  instance: { id: string };
  instances: { status: string }[];
  run: { id: string; status: string };
}

async function api(url: string, key: string, method: string, route: string, body?: unknown): Promise<Answer> {
  const response = await fetch(url + route, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await response.json()) as Answer;
}

export async function eventStreamBackpressureBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-events-'));
  // The readers each hold a stream under keys of their own: no key holds more than its share.
  const keys = Array.from({ length: stalledReaders + 2 }, (_, n) => runCli(['keys', 'create', '--name', `reader ${n}`, '--data-dir', dataDir]).trim().split('\n').pop()!);
  const [admin, healthyKey, ...readerKeys] = keys;
  const daemon = await startDaemon(dataDir);
  const pid = daemon.process.pid!;
  const { port } = new URL(daemon.url);
  try {
    await api(daemon.url, admin, 'PATCH', '/api/settings', { runner: { maxRunning: runs } });
    const line = 'x'.repeat(100);
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `cat >/dev/null; yes ${line} | head -n ${linesPerRun}`] };
    const instances: string[] = [];
    for (let n = 0; n < runs; n++) instances.push((await api(daemon.url, admin, 'POST', '/api/instances', { name: `printer ${n}`, agent })).instance.id);
    while ((await api(daemon.url, admin, 'GET', '/api/instances')).instances.some((instance) => instance.status === 'provisioning')) await sleep(100);

    await sleep(idleMs);
    const idle = await sample(pid, Number(port), sleep(idleMs));
    const idleRssMB = rss(pid);

    /** The runs, sampled until they end. */
    const load = async () => {
      const started = await Promise.all(instances.map((instanceId) => api(daemon.url, admin, 'POST', '/api/runs', { instanceId, prompt: 'print' })));
      const finished = (async () => {
        for (const { run } of started) {
          while (['queued', 'running'].includes((await api(daemon.url, admin, 'GET', `/api/runs/${run.id}`)).run.status)) await sleep(200);
        }
      })();
      return sample(pid, Number(port), finished);
    };

    const healthy = healthyReader(Number(port), healthyKey);
    const runsAlone = await load();
    const readers = await Promise.all(readerKeys.map((key) => stalledReader(Number(port), key)));
    const withStalled = await load();
    await sleep(1_000);
    const rssAfterMB = rss(pid);
    // A stalled reader only learns it was closed once it reads: read each.
    const closedReaders = (await Promise.all(readers.map(({ socket, closed }) => closedByDaemon(socket, closed)))).filter(Boolean).length;
    healthy.stop();

    const sorted = (values: number[]) => values.filter(Number.isFinite).sort((a, b) => a - b);
    const healthOf = (values: number[]) => {
      const each = sorted(values);
      return { p50: round(percentile(each, 50)), p95: round(percentile(each, 95)), max: round(each.at(-1) ?? Number.NaN) };
    };
    const growthMB = withStalled.peakRssMB - idleRssMB;
    const healthP50 = percentile(sorted(withStalled.health), 50);
    return {
      benchmark: 'event-stream-backpressure',
      stalledReaders,
      lines: runs * linesPerRun,
      idle: { rssMB: round(idleRssMB), healthMs: healthOf(idle.health) },
      runsAlone: { peakRssMB: round(runsAlone.peakRssMB), healthMs: healthOf(runsAlone.health) },
      withStalledReaders: { peakRssMB: round(withStalled.peakRssMB), rssAfterMB: round(rssAfterMB), healthMs: healthOf(withStalled.health), closedByDaemon: closedReaders },
      healthyReaderOverflowed: healthy.overflowed(),
      targets: { peakRssGrowthMBBelow: 150, healthP50MsBelow: 20 },
      met: growthMB < 150 && healthP50 < 20,
    };
  } finally {
    await daemon.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
