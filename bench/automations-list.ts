// The automations list at scale: 10,000 automations on everyday schedules, each with its health, behind the real HTTP API
// of a core started on the seeded data folder. Some have a long history (50 runs), some are failing
// (their newest runs failed), some have a week of fire records every 30 minutes with a few missed.
// GET /api/automations median and p99 beside, in the same run on the same server, the floor: an
// authenticated GET /api/health. Target: the list under 100 ms at the median.
// The scheduler is paused: nothing fires while it is measured. BENCH_SHORT=1 (the CI check): fewer
// samples and fewer fire records, the same 10,000 automations.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../src/main/core';
import { newId } from '../src/main/core/ids';
import { silentLogger } from '../src/main/core/logger';
import { type Automation, type Run, noApproval, noRetry } from '../src/shared/contract';

const short = process.env.BENCH_SHORT === '1';
const total = Number(process.env.BENCH_AUTOMATIONS ?? 10_000);
const samples = short ? 15 : 60;
/** Automations with 30-minute fire records, and how many days of them. */
const withFires = short ? 500 : 2_000;
const fireDays = 7;
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] * 100) / 100;
};

/** Everyday schedules, at times that vary with the automation; in the zones of a team spread out. */
const schedules = [(i: number) => `${i % 60} ${i % 24} * * *`, (i: number) => `${i % 60} * * * *`, (i: number) => `${i % 60} 9 * * 1-5`, (i: number) => `*/${5 + (i % 25)} * * * *`, (i: number) => `${i % 60} ${i % 24} ${1 + (i % 28)} * *`];
const timezones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney'];

/** Seeds the automations and their history straight into the store of a core that does not listen. */
export async function seed(dataDir: string): Promise<{ runs: number; fires: number }> {
  const core = await createCore({ dataDir, listen: false, logger: silentLogger() });
  try {
    const { store } = core;
    const instanceId = core.services.instances.ensureDefault().id;
    // Paused, so that none of them fires while the list is measured (the list works out their next fires all the same).
    core.services.scheduler.setPaused(true);
    const base = Date.now() - (fireDays + 1) * 24 * 3_600_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const ids: string[] = [];
    let runs = 0;
    store.transaction(() => {
      for (let i = 0; i < total; i++) {
        const id = newId('aut');
        const threadId = newId('thr');
        ids.push(id);
        store.threads.insert(threadId, 'automation', id, iso(base));
        store.automations.save({
          id, name: `bench ${i}`, prompt: 'p', enabled: i % 10 !== 0, catchUp: 'latest', notify: 'default', memory: 'fresh', trigger: null, retry: noRetry, budget: {}, approval: noApproval,
          alarm: null, lastFireAt: iso(Date.now()), instanceId, threadId, createdByRunId: null, createdAt: iso(base), updatedAt: iso(base),
          cronExpression: schedules[i % schedules.length](i), timezone: timezones[i % timezones.length],
        });
        // Every automation ran a few times; one in ten has a long history; one in twenty is failing.
        const count = i % 10 === 0 ? 50 : i % 20 === 5 ? 8 : 3;
        for (let n = 0; n < count; n++) {
          const createdAt = iso(base + n * 60_000 + i);
          const run: Run = {
            id: newId('run'), instanceId, threadId, source: 'automation', sourceId: id, status: 'queued', prompt: 'p', scheduledFor: createdAt, createdAt,
            startedAt: null, finishedAt: null, error: null, stderr: null, sessionId: null, resumedSessionId: null, replayOf: null, parentRunId: null, depth: 0,
            errorClass: null, retryOf: null, startAfter: null, outcome: null, summary: null, costUsd: null, inputTokens: null, outputTokens: null,
          };
          store.runs.insert(run);
          store.runs.claim(run.id, createdAt);
          const failed = i % 20 === 5 && n >= 2;
          store.runs.finish(run.id, failed ? 'failed' : 'succeeded', createdAt, failed ? 'boom' : null, null);
          runs++;
        }
      }
    });
    const insertFire = store.db.prepare<[string, string, string, string | null, string]>(
      'INSERT INTO fires (automation_id, due_at, state, reason, detail, run_id, recorded_at) VALUES (?, ?, ?, ?, NULL, NULL, ?)',
    );
    const step = 30 * 60_000;
    const slots = (fireDays * 24 * 3_600_000) / step;
    let fires = 0;
    for (let slot = 0; slot < slots; slot++) {
      const due = iso(base + slot * step);
      store.transaction(() => {
        for (const id of ids.slice(0, withFires)) {
          const missed = (fires + slot) % 97 === 0;
          insertFire.run(id, due, missed ? 'missed' : 'fired', missed ? 'steward_off' : null, due);
          fires++;
        }
      });
    }
    return { runs, fires };
  } finally {
    await core.close();
  }
}

export async function automationsListBench(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-bench-automations-'));
  try {
    const seeded = await seed(dataDir);
    const core = await createCore({ dataDir, port: 0, logger: silentLogger() });
    try {
      const { key } = core.services.apiKeys.create('bench');
      const headers = { authorization: `Bearer ${key}` };
      // Until the whole body is in: the API's latency. Parsing 10 MB of JSON is the client's cost, not timed.
      const timed = async (url: string) => {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const text = await response.text();
        return { ms: performance.now() - started, text };
      };
      const first = await timed(`${core.url}/api/automations`);
      const listed = (JSON.parse(first.text) as { automations?: Automation[] }).automations ?? [];
      const states = Object.fromEntries(['healthy', 'failing', 'missing'].map((state) => [state, listed.filter((each) => each.health.state === state).length]));
      const health: number[] = [];
      const list: number[] = [];
      // Alternating, so that both see the same machine.
      for (let i = 0; i < samples; i++) {
        health.push((await timed(`${core.url}/api/health`)).ms);
        list.push((await timed(`${core.url}/api/automations`)).ms);
      }
      const listP50 = percentile(list, 50);
      const healthP50 = percentile(health, 50);
      return {
        benchmark: 'automations-list',
        short,
        automations: listed.length,
        seeded,
        states,
        // The first list after the start also works out every automation's next fire times.
        firstListMs: Math.round(first.ms),
        responseBytes: first.text.length,
        healthFloorMs: { p50: healthP50, p99: percentile(health, 99) },
        listMs: { p50: listP50, p99: percentile(list, 99) },
        // The guarded ratio: the list's median over the health floor's, the same server in the same run.
        listOverHealth: Math.round((listP50 / healthP50) * 10) / 10,
        loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
        targets: { listP50MsBelow: 100 },
        met: listed.length === total && listP50 < 100,
      };
    } finally {
      await core.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
