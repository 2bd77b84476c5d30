// Health while agents talk: the daemon (`steward serve`, a child process) answers GET /api/health
// first idle, then while 3 runs print 10,000 lines each as fast as they can, in the same run. The
// guarded ratio is the chatty health median over the idle one (lower is better). Every line must
// be recorded: once the daemon has stopped, its database is read for the activity lines and
// messages of each run, which must equal the lines printed.
// Target: health median under 20 ms while the runs print.
// Short mode (bench:check): BENCH_SECONDS=2 samples idle for 2 s and has each run print 1,000 lines
// a second of it (2,000); BENCH_LINES_PER_RUN sets the lines alone. Unless told: 3 s idle, 10,000 lines.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { runCli, startDaemon } from '../test/support/processes';
import { healthMs } from './measure';

const runs = 3;
const short = process.env.BENCH_SECONDS === undefined ? undefined : Number(process.env.BENCH_SECONDS);
const linesPerRun = Number(process.env.BENCH_LINES_PER_RUN ?? (short === undefined ? 10_000 : Math.min(10_000, Math.round(short * 1000))));
const idleMs = (short ?? 3) * 1000;

const round = (value: number) => Math.round(value * 10) / 10;
const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const p95 = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] ?? Number.NaN;
};

/** Health latencies, one request every 50 ms, until `done` settles. */
async function sampleHealth(port: number, done: Promise<unknown>): Promise<number[]> {
  let finished = false;
  void done.finally(() => (finished = true));
  const health: number[] = [];
  while (!finished) {
    health.push(await healthMs(port));
    await sleep(50);
  }
  return health;
}

async function api<T>(url: string, key: string, method: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(url + route, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return (await response.json()) as T;
}

export async function healthUnderOutputBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-output-'));
  const key = runCli(['keys', 'create', '--name', 'bench', '--data-dir', dataDir]).trim().split('\n').pop()!;
  const daemon = await startDaemon(dataDir);
  const port = Number(new URL(daemon.url).port);
  const runIds: string[] = [];
  let result: Record<string, unknown>;
  try {
    await api(daemon.url, key, 'PATCH', '/api/settings', { runner: { maxRunning: runs } });
    // Numbered lines, so that the count read back is of distinct lines.
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `cat >/dev/null; seq -f 'line %g ${'x'.repeat(90)}' ${linesPerRun}`] };
    const instances: string[] = [];
    for (let n = 0; n < runs; n++) instances.push((await api<{ instance: { id: string } }>(daemon.url, key, 'POST', '/api/instances', { name: `printer ${n}`, agent })).instance.id);
    while ((await api<{ instances: { status: string }[] }>(daemon.url, key, 'GET', '/api/instances')).instances.some((instance) => instance.status === 'provisioning')) await sleep(100);

    await sleep(500);
    const idle = await sampleHealth(port, sleep(idleMs));

    const started = performance.now();
    for (const instanceId of instances) runIds.push((await api<{ run: { id: string } }>(daemon.url, key, 'POST', '/api/runs', { instanceId, prompt: 'print' })).run.id);
    let endedAt = 0;
    const finished = (async () => {
      for (const id of runIds) {
        while (['queued', 'running'].includes((await api<{ run: { status: string } }>(daemon.url, key, 'GET', `/api/runs/${id}`)).run.status)) await sleep(100);
      }
      endedAt = performance.now();
    })();
    const chatty = await sampleHealth(port, finished);
    const loadAverage = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);

    const idleMedian = median(idle);
    const chattyMedian = median(chatty);
    result = {
      benchmark: 'health-under-output',
      runs,
      linesPerRun,
      idle: { healthMs: { p50: round(idleMedian), p95: round(p95(idle)), samples: idle.length } },
      chatty: { healthMs: { p50: round(chattyMedian), p95: round(p95(chatty)), samples: chatty.length } },
      linesPerSecond: Math.round((runs * linesPerRun) / ((endedAt - started) / 1000)),
      // Guarded: the chatty health median over the idle one, in the same run (lower is better).
      healthChattyOverIdle: round(chattyMedian / Math.max(idleMedian, 0.1)),
      loadAverage,
      targets: { chattyHealthP50MsBelow: 20 },
    };
  } finally {
    await daemon.stop();
  }
  try {
    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true });
    const count = (sql: string, runId: string) => (db.prepare(sql).get(runId) as { n: number }).n;
    const recorded = runIds.map((runId) => ({
      activity: count("SELECT count(DISTINCT display_text) AS n FROM activity WHERE run_id = ? AND kind = 'assistant'", runId),
      messages: count("SELECT count(DISTINCT content) AS n FROM messages WHERE run_id = ? AND role = 'assistant'", runId),
    }));
    db.close();
    const everyLine = recorded.every((each) => each.activity === linesPerRun && each.messages === linesPerRun);
    return { ...result, recorded, everyLineRecorded: everyLine, met: everyLine && (result.chatty as { healthMs: { p50: number } }).healthMs.p50 < 20 };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
