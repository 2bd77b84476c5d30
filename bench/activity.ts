// The activity feed at size: 100 instances × 10,000 lines (1M lines) in a real SQLite file behind
// the real HTTP API. Measures a first poll without cursors, an incremental poll with 100 cursors
// and 10 new lines, and append throughput; beside them, in the same run, the floor: an
// authenticated GET /api/health on the same server.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';
import type { ActivityFeed, Cursors } from '../src/shared/contract';

const instanceCount = 100;
const linesPerInstance = 10_000;
const samples = 300;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] * 100) / 100;
};
const encode = (cursors: Cursors) => Buffer.from(JSON.stringify(cursors)).toString('base64');

export async function activityBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-activity-'));
  const core = await createCore({ dataDir, port: 0, logger: silentLogger() });
  try {
    const { key } = core.services.apiKeys.create('bench');
    const headers = { authorization: `Bearer ${key}` };
    const ids: string[] = [];
    for (let i = 0; i < instanceCount; i++) ids.push(core.services.instances.create({ name: `agent ${i}`, agent: { provider: 'command', preset: 'custom', command: 'true' } }).id);
    await core.services.instances.idle();
    const { store } = core;
    let stamp = Date.parse('2030-01-01T00:00:00.000Z');
    const append = (instanceId: string, n: number) =>
      store.activity.append({ instanceId, runId: null, kind: 'assistant', label: 'cron', displayText: `line ${n} of a busy agent`, raw: `{"type":"assistant","n":${n}}`, timestamp: new Date(stamp++).toISOString() });

    // Fill: 1M lines, interleaved across instances, 10,000 lines per transaction.
    const fillStarted = performance.now();
    for (let n = 0; n < linesPerInstance; n += 100) {
      store.transaction(() => {
        for (let k = n; k < n + 100; k++) for (const id of ids) append(id, k);
      });
    }
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    // One line per transaction, as a lone event would be written.
    const singleStarted = performance.now();
    for (let n = 0; n < 2_000; n++) store.transaction(() => append(ids[n % instanceCount], n));
    const singleSeconds = (performance.now() - singleStarted) / 1000;

    const timed = async (url: string) => {
      const started = performance.now();
      const response = await fetch(url, { headers });
      const body = (await response.json()) as ActivityFeed;
      return { ms: performance.now() - started, body };
    };
    const health: number[] = [];
    const first: number[] = [];
    for (let i = 0; i < samples; i++) {
      health.push((await timed(`${core.url}/api/health`)).ms);
      first.push((await timed(`${core.url}/api/activity`)).ms);
    }
    let { cursors } = (await timed(`${core.url}/api/activity`)).body;
    const incremental: number[] = [];
    let exact = true;
    for (let i = 0; i < samples; i++) {
      store.transaction(() => {
        for (let k = 0; k < 10; k++) append(ids[(i * 10 + k) % instanceCount], linesPerInstance + i);
      });
      const { ms, body } = await timed(`${core.url}/api/activity?cursors=${encode(cursors)}`);
      if (body.events.length !== 10 || body.hasMore) exact = false;
      cursors = body.cursors;
      incremental.push(ms);
    }
    const result = {
      benchmark: 'activity',
      lines: instanceCount * linesPerInstance,
      instances: instanceCount,
      healthFloorMs: { p50: percentile(health, 50), p99: percentile(health, 99) },
      firstPollMs: { p50: percentile(first, 50), p99: percentile(first, 99) },
      incrementalPollMs: { p50: percentile(incremental, 50), p99: percentile(incremental, 99), cursors: instanceCount, newLines: 10, everyPollExact: exact },
      appendLinesPerSecond: { batched: Math.round((instanceCount * linesPerInstance) / fillSeconds), oneLinePerTransaction: Math.round(2_000 / singleSeconds) },
      targets: { incrementalP50MsBelow: 5, firstPollMsBelow: 20 },
    };
    return { ...result, met: exact && result.incrementalPollMs.p50 < 5 && result.firstPollMs.p50 < 20 };
  } finally {
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
