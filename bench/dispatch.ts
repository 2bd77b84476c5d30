// Dispatch latency: from a trigger accepted (its run committed) to the agent process spawned
// (the run marked running right before the spawn), custom agent `true`, 1,000 triggers one after
// another on a real core (loopback HTTP, SQLite file).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { silentLogger } from '../src/main/core/logger';

const triggers = 1_000;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

export async function dispatchBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-dispatch-'));
  const core = await createCore({ dataDir, port: 0, logger: silentLogger() });
  try {
    const instance = core.services.instances.create({ name: 'true', agent: { provider: 'command', preset: 'custom', command: 'true' } });
    await core.services.instances.idle(); // runs wait until the instance's agent is probed
    const webhook = core.services.webhooks.create({ name: 'bench', promptTemplate: '{{payload}}', enabled: true, notify: 'default', memory: 'fresh', instanceId: instance.id });
    for (let i = 0; i < triggers; i++) {
      const response = await fetch(webhook.triggerUrl!, { method: 'POST', body: String(i) });
      const { run } = (await response.json()) as { run: { id: string } };
      // One at a time, so each is dispatched to a free instance.
      while (['queued', 'running'].includes(core.services.runs.get(run.id).status)) await new Promise((resolve) => setImmediate(resolve));
    }
    const rows = core.store.db
      .prepare<[], { created_at: string; started_at: string | null; status: string }>("SELECT created_at, started_at, status FROM runs WHERE source = 'webhook'")
      .all();
    const latencies = rows.map((row) => Date.parse(row.started_at ?? '') - Date.parse(row.created_at)).sort((a, b) => a - b);
    const succeeded = rows.filter((row) => row.status === 'succeeded').length;
    const p50 = percentile(latencies, 50);
    return {
      benchmark: 'dispatch',
      triggers,
      succeeded,
      dispatchMs: { p50, p99: percentile(latencies, 99) },
      targets: { p50MsBelow: 20 },
      met: succeeded === triggers && p50 < 20,
    };
  } finally {
    await core.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
