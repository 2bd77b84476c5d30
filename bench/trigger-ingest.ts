// Trigger ingest: 50 connections posting 300-byte JSON to a trigger URL of the built daemon, beside
// its baselines in the same run: a bare node:http server doing nothing, and Fastify with
// better-sqlite3 INSERTing each body (sync NORMAL, and FULL). The servers are loaded in 1 s slices
// in turn, the order rotating each round, so that none gets the quieter moments of a shared
// machine. Every 2xx the daemon answered must be a run in SQLite afterwards; the benchmark checks
// that too. A second webhook with a filter (that passes) and field placeholders is loaded in the
// same rounds: it must stay within 10% of plain ingest.
//
// `trigger-ingest-backlog` loads two daemons the same way: one that starts empty, one that starts
// with 100,000 queued runs, each request with its own X-GitHub-Delivery id (the idempotency key
// looked up among the webhook's runs). A trigger must cost the same at any backlog (ratio at least
// 0.9). The empty daemon gathers a backlog of its own as it is loaded (a few thousand a second):
// the comparison is of 0 and up against 100,000 and up.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { newId } from '../src/main/core/ids';
import { type Server, startBareServer, startDaemon } from '../test/support/processes';
import { ensureBuilt, runBuiltCli } from './built';
import { median } from './measure';

const connections = 50;
const sliceSeconds = 1;
const rounds = Number(process.env.BENCH_SECONDS ?? 10);
const backlogRuns = Number(process.env.BENCH_BACKLOG ?? 100_000);

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

interface Load {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  responses2xx: number;
  non2xx: number;
  errors: number;
}

/** `delivered`: each request carries its own X-GitHub-Delivery, which Steward looks up as its idempotency key. */
async function load(url: string, duration: number, delivered = false): Promise<Load> {
  const headers = { 'content-type': 'application/json' };
  const result = await autocannon({
    url,
    connections,
    duration,
    requests: [{ method: 'POST', headers, body: body300(), ...(delivered ? { setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...headers, 'x-github-delivery': randomUUID() } }) } : {}) }],
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

/** Each URL warmed once, then `rounds` 1 s slices of each, the order rotating every round. */
async function inTurn(urls: string[], delivered = false): Promise<Load[]> {
  for (const url of urls) await load(url, sliceSeconds, delivered);
  const slices = urls.map((): Load[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let step = 0; step < urls.length; step++) {
      const which = (round + step) % urls.length;
      slices[which].push(await load(urls[which], sliceSeconds, delivered));
    }
  }
  return slices.map(combined);
}

interface IngestDaemon {
  daemon: Server;
  dataDir: string;
  plain: { id: string; triggerUrl: string };
  filtered: { id: string; triggerUrl: string };
  /** Runs of a webhook in SQLite (after the daemon stopped). */
  stored(webhookId: string): number;
  close(): Promise<void>;
}

async function createWebhook(daemonUrl: string, key: string, body: object): Promise<{ id: string; triggerUrl: string }> {
  const created = await fetch(`${daemonUrl}/api/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ...body }),
  });
  return ((await created.json()) as { webhook: { id: string; triggerUrl: string } }).webhook;
}

/** `count` queued runs of a webhook, written straight into SQLite as a burst of triggers would leave them. */
function fillBacklog(dbFile: string, webhookId: string, count: number): void {
  const db = new Database(dbFile);
  const { instance_id: instanceId, thread_id: threadId } = db.prepare<[string], { instance_id: string; thread_id: string }>('SELECT instance_id, thread_id FROM webhooks WHERE id = ?').get(webhookId)!;
  const insert = db.prepare<[string, string, string, string, string, string]>(
    "INSERT INTO runs (id, instance_id, thread_id, source, source_id, status, prompt, created_at) VALUES (?, ?, ?, 'webhook', ?, 'queued', ?, ?)",
  );
  const start = Date.now() - count;
  db.transaction(() => {
    for (let i = 0; i < count; i++) insert.run(newId('run', start + i), instanceId, threadId, webhookId, `CI says: ${body300()}`, new Date(start + i).toISOString());
  })();
  db.close();
}

/**
 * The built daemon on a fresh folder, measuring ingest: its instance is stopped and the queue
 * limit lifted, so every trigger is answered 202 and stays queued; `backlog` runs already queued.
 */
async function ingestDaemon(backlog = 0): Promise<IngestDaemon> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-'));
  const dbFile = path.join(dataDir, 'steward.db');
  const key = runBuiltCli(['keys', 'create', '--name', 'bench', '--data-dir', dataDir]).trim().split('\n').pop()!;
  const setup = new Database(dbFile);
  setup.prepare("UPDATE instances SET status = 'stopped'").run();
  setup.prepare("INSERT INTO settings (key, value) VALUES ('runner.maxQueued', 'off')").run();
  setup.close();
  let daemon = await startDaemon(dataDir, ['--port', '0'], {}, { built: true });
  const plain = await createWebhook(daemon.url, key, { promptTemplate: 'CI says: {{payload}}' });
  const filtered = await createWebhook(daemon.url, key, filterAndFields);
  if (backlog > 0) {
    await daemon.stop();
    fillBacklog(dbFile, plain.id, backlog);
    daemon = await startDaemon(dataDir, ['--port', '0'], {}, { built: true });
  }
  const host = new URL(daemon.url).host;
  const local = (webhook: { id: string; triggerUrl: string }) => ({ ...webhook, triggerUrl: webhook.triggerUrl.replace(new URL(webhook.triggerUrl).host, host) });
  const running = daemon;
  return {
    daemon: running,
    dataDir,
    plain: local(plain),
    filtered: local(filtered),
    stored(webhookId: string): number {
      const db = new Database(dbFile, { readonly: true });
      const { n } = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM runs WHERE source = 'webhook' AND source_id = ?").get(webhookId)!;
      db.close();
      return n;
    },
    async close() {
      await running.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ratio = (a: number, b: number): number => Number((a / b).toFixed(3));

export async function triggerIngest(): Promise<Record<string, unknown>> {
  ensureBuilt();
  const bare = await startBareServer();
  const normal = await startBareServer('fastify-insert.mjs', ['NORMAL']);
  const full = await startBareServer('fastify-insert.mjs', ['FULL']);
  const steward = await ingestDaemon();
  try {
    const trigger = (server: Server) => `${server.url}/api/webhooks/trigger/x`;
    const [plain, filtered, bareLoad, normalLoad, fullLoad] = await inTurn([steward.plain.triggerUrl, steward.filtered.triggerUrl, trigger(bare), trigger(normal), trigger(full)]);
    await steward.daemon.stop();
    const stored = steward.stored(steward.plain.id);
    const storedFiltered = steward.stored(steward.filtered.id);
    const everyAnswerStored = stored >= plain.responses2xx && storedFiltered >= filtered.responses2xx;
    const result = {
      benchmark: 'trigger-ingest',
      connections,
      seconds: rounds * sliceSeconds,
      bodyBytes: body300().length,
      steward: { ...plain, runsStored: stored },
      filterAndFields: { ...filtered, runsStored: storedFiltered },
      bare: bareLoad,
      fastifyInsertNormal: normalLoad,
      fastifyInsertFull: fullLoad,
      ratio: ratio(plain.reqPerSec, bareLoad.reqPerSec),
      ratioFastifyNormal: ratio(plain.reqPerSec, normalLoad.reqPerSec),
      ratioFastifyFull: ratio(plain.reqPerSec, fullLoad.reqPerSec),
      filterRatio: ratio(filtered.reqPerSec, plain.reqPerSec),
      everyAnswerStored,
    };
    return { ...result, targets: { ratioFastifyNormalAtLeast: 1, filterRatioAtLeast: 0.9 }, met: result.ratioFastifyNormal >= 1 && result.filterRatio >= 0.9 && everyAnswerStored };
  } finally {
    await steward.close();
    await Promise.all([bare.stop(), normal.stop(), full.stop()]);
  }
}

export async function triggerIngestBacklog(): Promise<Record<string, unknown>> {
  ensureBuilt();
  const empty = await ingestDaemon();
  const backlogged = await ingestDaemon(backlogRuns);
  try {
    // As GitHub sends them: each delivery with its id, looked up among the webhook's runs of the last day.
    const [emptyLoad, backlogLoad] = await inTurn([empty.plain.triggerUrl, backlogged.plain.triggerUrl], true);
    await Promise.all([empty.daemon.stop(), backlogged.daemon.stop()]);
    const everyAnswerStored = empty.stored(empty.plain.id) >= emptyLoad.responses2xx && backlogged.stored(backlogged.plain.id) >= backlogRuns + backlogLoad.responses2xx;
    const backlogRatio = ratio(backlogLoad.reqPerSec, emptyLoad.reqPerSec);
    return {
      benchmark: 'trigger-ingest-backlog',
      connections,
      seconds: rounds * sliceSeconds,
      queuedAtStart: backlogRuns,
      empty: emptyLoad,
      backlog: backlogLoad,
      backlogRatio,
      everyAnswerStored,
      targets: { backlogRatioAtLeast: 0.9 },
      met: backlogRatio >= 0.9 && everyAnswerStored,
    };
  } finally {
    await Promise.all([empty.close(), backlogged.close()]);
  }
}
