// Trigger ingest: 50 connections posting 300-byte JSON to a trigger URL of the real daemon for
// 10 s, against a bare node:http server doing nothing, in the same run. Every 2xx the daemon
// answered must be a run in SQLite afterwards; the benchmark checks that too (a few more runs than
// answers are requests still in flight when the load stopped). A second webhook with a filter
// (that passes) and field placeholders is loaded in the same run, in 1 s slices alternating with
// the plain one (ABBA), so that neither gets the emptier database or the quieter moment of a
// shared machine: it must stay within 10% of plain ingest. Slice latencies are medians.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { runCli, startBareServer, startDaemon } from '../test/support/processes';

const connections = 50;
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);

function body300(): string {
  const base = { action: 'completed', repository: 'octo/steward', workflow: 'ci', conclusion: 'failure', pad: '' };
  base.pad = 'x'.repeat(300 - JSON.stringify(base).length);
  return JSON.stringify(base);
}

const filterAndFields = {
  promptTemplate: 'CI {{payload.workflow}} in {{payload.repository}} ended {{payload.conclusion}} ({{payload.action}}, {{headers.content-type}}): {{payload}}',
  filter: [
    { payload: 'action', equals: 'completed' },
    { payload: 'conclusion', in: ['failure', 'timed_out', 'cancelled'] },
    { header: 'content-type', exists: true },
  ],
};

type Load = Awaited<ReturnType<typeof load>>;

async function load(url: string, duration = durationSeconds) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration,
    headers: { 'content-type': 'application/json' },
    body: body300(),
  });
  return {
    reqPerSec: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    responses2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Slices of one case as one: requests per second over all of them, median latencies, counts added. */
function combined(slices: Load[]): Load {
  return {
    reqPerSec: Math.round(slices.reduce((sum, slice) => sum + slice.reqPerSec, 0) / slices.length),
    p50Ms: median(slices.map((slice) => slice.p50Ms)),
    p99Ms: median(slices.map((slice) => slice.p99Ms)),
    responses2xx: slices.reduce((sum, slice) => sum + slice.responses2xx, 0),
    non2xx: slices.reduce((sum, slice) => sum + slice.non2xx, 0),
    errors: slices.reduce((sum, slice) => sum + slice.errors, 0),
  };
}

/** `durationSeconds` of each URL in 1 s slices, A B B A A B B A ... */
async function interleaved(a: string, b: string): Promise<[Load, Load]> {
  // Warm both paths first (JIT, prepared statements), so the first measured slice is not the cold one.
  await load(a, 1);
  await load(b, 1);
  const slices: [Load[], Load[]] = [[], []];
  for (let round = 0; round < durationSeconds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    for (const which of order) slices[which].push(await load(which === 0 ? a : b, 1));
  }
  return [combined(slices[0]), combined(slices[1])];
}

async function createWebhook(daemonUrl: string, key: string, body: object): Promise<{ id: string; triggerUrl: string }> {
  const created = await fetch(`${daemonUrl}/api/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ...body }),
  });
  return ((await created.json()) as { webhook: { id: string; triggerUrl: string } }).webhook;
}

export async function triggerIngest(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-'));
  const key = runCli(['keys', 'create', '--name', 'bench', '--data-dir', dataDir]).trim().split('\n').pop()!;
  // This measures ingest: the runs stay queued (the instance is stopped) and the queue limit is
  // lifted, so every trigger is answered 202 rather than 503 queue_full.
  const setup = new Database(path.join(dataDir, 'steward.db'));
  setup.prepare("UPDATE instances SET status = 'stopped'").run();
  setup.prepare("INSERT INTO settings (key, value) VALUES ('runner.maxQueued', 'off')").run();
  setup.close();
  const bare = await startBareServer();
  const daemon = await startDaemon(dataDir);
  try {
    const webhook = await createWebhook(daemon.url, key, { promptTemplate: 'CI says: {{payload}}' });
    const filtered = await createWebhook(daemon.url, key, filterAndFields);

    const bareResult = await load(`${bare.url}/api/webhooks/trigger/x`);
    const [stewardResult, filteredResult] = await interleaved(webhook.triggerUrl, filtered.triggerUrl);
    await daemon.stop();

    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true });
    const storedOf = (id: string) => db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM runs WHERE source = 'webhook' AND source_id = ?").get(id)!.n;
    const stored = storedOf(webhook.id);
    const storedFiltered = storedOf(filtered.id);
    db.close();

    const ratio = Number((stewardResult.reqPerSec / bareResult.reqPerSec).toFixed(3));
    const filterRatio = Number((filteredResult.reqPerSec / stewardResult.reqPerSec).toFixed(3));
    const everyAnswerStored = stored >= stewardResult.responses2xx && storedFiltered >= filteredResult.responses2xx;
    return {
      benchmark: 'trigger-ingest',
      connections,
      durationSeconds,
      bodyBytes: body300().length,
      steward: { ...stewardResult, runsStored: stored, everyAnswerStored: stored >= stewardResult.responses2xx },
      filterAndFields: { ...filteredResult, runsStored: storedFiltered, everyAnswerStored: storedFiltered >= filteredResult.responses2xx },
      bare: bareResult,
      ratio,
      filterRatio,
      targets: { ratioAtLeast: 0.5, p99MsBelow: 10, filterRatioAtLeast: 0.9 },
      met: ratio >= 0.5 && stewardResult.p99Ms < 10 && filterRatio >= 0.9 && everyAnswerStored,
    };
  } finally {
    await daemon.stop();
    await bare.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
