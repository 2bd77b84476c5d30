// Trigger ingest: 50 connections posting 300-byte JSON to a trigger URL of the real daemon for
// 10 s, against a bare node:http server doing nothing, in the same run. Every 2xx the daemon
// answered must be a run in SQLite afterwards; the benchmark checks that too (a few more runs than
// answers are requests still in flight when the load stopped).
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

async function load(url: string) {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: durationSeconds,
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
    const created = await fetch(`${daemon.url}/api/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', promptTemplate: 'CI says: {{payload}}' }),
    });
    const { webhook } = (await created.json()) as { webhook: { triggerUrl: string } };

    const bareResult = await load(`${bare.url}/api/webhooks/trigger/x`);
    const stewardResult = await load(webhook.triggerUrl);
    await daemon.stop();

    const db = new Database(path.join(dataDir, 'steward.db'), { readonly: true });
    const stored = db.prepare<[], { n: number }>("SELECT count(*) AS n FROM runs WHERE source = 'webhook'").get()!.n;
    db.close();

    const ratio = Number((stewardResult.reqPerSec / bareResult.reqPerSec).toFixed(3));
    return {
      benchmark: 'trigger-ingest',
      connections,
      durationSeconds,
      bodyBytes: body300().length,
      steward: { ...stewardResult, runsStored: stored, everyAnswerStored: stored >= stewardResult.responses2xx },
      bare: bareResult,
      ratio,
      targets: { ratioAtLeast: 0.5, p99MsBelow: 10 },
      met: ratio >= 0.5 && stewardResult.p99Ms < 10 && stored >= stewardResult.responses2xx,
    };
  } finally {
    await daemon.stop();
    await bare.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
