// The watch source at scale: 100 watched folders of 10,000 files each on a real `steward serve`.
// Measures the first look (every file walked and a cursor row written for each), then, side by
// side over the same seconds, the daemon's CPU and resident memory at idle against a bare node
// process (bench/bare-server.mjs), and the time from a file's creation to its run queued (the
// automations settle 0 ms and debounce 0 ms: the delay Steward adds; a user's settleMs and
// debounceMs add to it by design). Short mode: BENCH_SECONDS, BENCH_WATCH_FOLDERS, BENCH_WATCH_FILES.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';
import { type Server, startBareServer, startDaemon } from '../test/support/processes';
import { residentMB } from './measure';

const folderCount = Number(process.env.BENCH_WATCH_FOLDERS ?? 100);
const filesEach = Number(process.env.BENCH_WATCH_FILES ?? 10_000);
const idleSeconds = Number(process.env.BENCH_SECONDS ?? 60);
const created = 200;
const createEveryMs = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ticksPerSecond = 100;
/** A process's user + system CPU so far, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
};
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function watchFoldersBench(): Promise<Record<string, unknown>> {
  const base = fs.mkdtempSync(path.join(process.env.TMPDIR ?? (fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir()), 'steward-bench-watch-'));
  const dataDir = path.join(base, 'data');
  const folders = Array.from({ length: folderCount }, (_, i) => path.join(base, `folder-${i}`));
  let daemon: Server | undefined;
  let bare: Server | undefined;
  try {
    const madeAt = performance.now();
    for (const folder of folders) {
      fs.mkdirSync(folder);
      for (let n = 0; n < filesEach; n++) fs.writeFileSync(path.join(folder, `file-${n}.txt`), `file ${n}`);
    }
    const makeFilesSeconds = (performance.now() - madeAt) / 1000;

    const core = await createCore({ dataDir, listen: false, logger: silentLogger() });
    const key = core.services.apiKeys.create('bench').key;
    await core.close();
    daemon = await startDaemon(dataDir, ['--port', '0']);
    bare = await startBareServer();
    const api = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${daemon!.url}${route}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return response.json();
    };
    const pid = daemon.process.pid!;

    // The first look: each folder walked once and its 10,000 cursor rows written, one folder at a time.
    const lookStartedAt = performance.now();
    const cpuBeforeLook = cpuMs(pid);
    for (const folder of folders) {
      await api('POST', '/api/automations', { name: `watch ${path.basename(folder)}`, prompt: 'File: {{event.relativePath}}', trigger: { watch: { path: folder, settleMs: 0, debounceMs: 0 } } });
    }
    for (;;) {
      const { automations } = (await api('GET', '/api/automations')) as { automations: { source: { state: string } | null }[] };
      if (automations.filter((automation) => automation.source?.state === 'listening').length === folderCount) break;
      await sleep(250);
    }
    const firstLook = { seconds: round((performance.now() - lookStartedAt) / 1000), cpuSeconds: round((cpuMs(pid) - cpuBeforeLook) / 1000) };

    // Idle, both processes over the same seconds.
    await sleep(2000);
    const idleFrom = { steward: cpuMs(pid), bare: cpuMs(bare.process.pid!), at: performance.now() };
    await sleep(idleSeconds * 1000);
    const elapsedMs = performance.now() - idleFrom.at;
    const idle = {
      seconds: idleSeconds,
      stewardCpuPercent: round(((cpuMs(pid) - idleFrom.steward) / elapsedMs) * 100, 2),
      bareCpuPercent: round(((cpuMs(bare.process.pid!) - idleFrom.bare) / elapsedMs) * 100, 2),
      stewardRssMB: round(residentMB(pid) ?? Number.NaN),
      bareRssMB: round(residentMB(bare.process.pid!) ?? Number.NaN),
    };

    // Latency: a file now and then in a folder picked in turn, each timed from just before its write.
    const madeFiles = new Map<string, number>();
    for (let i = 0; i < created; i++) {
      const folder = folders[(i * 37) % folderCount];
      const name = `new-${i}.txt`;
      madeFiles.set(`${name} created in ${folder}`, Date.now());
      fs.writeFileSync(path.join(folder, name), `new ${i}`);
      await sleep(createEveryMs);
    }
    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true });
    let queued: { event: string; created_at: string }[] = [];
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      queued = db.prepare<[], { event: string; created_at: string }>("SELECT f.event, r.created_at FROM fires f JOIN runs r ON r.id = f.run_id WHERE f.event LIKE 'new-%'").all();
      if (queued.length >= created) break;
      await sleep(200);
    }
    db.close();
    const latencies = queued.filter((row) => madeFiles.has(row.event)).map((row) => Date.parse(row.created_at) - madeFiles.get(row.event)!);
    const latencyMs = { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) };

    return {
      benchmark: 'watch-folders',
      folders: folderCount,
      filesEach,
      makeFilesSeconds: round(makeFilesSeconds),
      firstLook,
      idle,
      idleCpuRatio: round(idle.stewardCpuPercent / Math.max(idle.bareCpuPercent, 0.01), 1),
      idleRssRatio: round(idle.stewardRssMB / idle.bareRssMB, 1),
      filesCreated: created,
      runsQueued: latencies.length,
      latencyMs,
      targets: { latencyP99MsBelow: 1000 },
      met: latencies.length === created && latencyMs.p99 < 1000,
    };
  } finally {
    await daemon?.stop();
    await bare?.stop();
    fs.rmSync(base, { recursive: true, force: true });
  }
}
