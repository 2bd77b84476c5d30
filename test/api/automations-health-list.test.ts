// The automations list's health against one automation's, through the real HTTP API on a real
// SQLite file with a clock that stands still: automations built into each health state (never ran,
// recovered, failing by each way a run fails, a retried failure and a cancelled run left out of the
// count, missing, missing then on time again, a caught-up fire, failing and missing at once), each
// shown the same by GET /api/automations and GET /api/automations/{id}, as expected. And the list's
// cost: the statements it runs do not grow with the number of automations, and none of them scans
// the runs or the fires (whose rows grow with history).
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/main/core/ids';
import type { Automation, Run, RunStatus } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore } from '../support/core';

const now = '2026-11-21T14:00:30.000Z';
let t: TestCore;

beforeAll(async () => {
  t = await startTestCore({ clock: new ManualClock(now) });
});
afterAll(async () => {
  await t?.close();
});

async function create(name: string, fields: Record<string, unknown> = {}): Promise<Automation> {
  const response = await t.api('POST', '/api/automations', { name, prompt: 'p', cronExpression: '0 * * * *', ...fields });
  expect(response.body).not.toHaveProperty('error');
  return response.body.automation as Automation;
}

let stamp = Date.parse('2026-11-21T09:00:00.000Z');
/** A run of the automation that ended (or stands) as `status`, newer than every run before it. */
function addRun(automation: Automation, status: Exclude<RunStatus, 'waiting'>, retryOf: string | null = null): Run {
  const { store } = t.core;
  const createdAt = new Date((stamp += 1000)).toISOString();
  const run: Run = {
    id: newId('run'), instanceId: automation.instanceId, threadId: automation.threadId, source: 'automation', sourceId: automation.id, status: 'queued', prompt: 'p', scheduledFor: null, createdAt,
    startedAt: null, finishedAt: null, error: null, stderr: null, sessionId: null, resumedSessionId: null, replayOf: null, parentRunId: null, depth: 0,
    errorClass: null, retryOf, startAfter: null, outcome: null, summary: null, costUsd: null, inputTokens: null, outputTokens: null,
  };
  store.runs.insert(run);
  if (status === 'cancelled') store.runs.finish(run.id, 'cancelled', createdAt, null, null);
  else if (status !== 'queued') {
    store.runs.claim(run.id, createdAt);
    if (status !== 'running') store.runs.finish(run.id, status, createdAt, status === 'succeeded' ? null : 'exit 1', null);
  }
  return run;
}

function addFire(automation: Automation, dueAt: string, state: 'fired' | 'missed' | 'caught-up' | 'skipped', reason: 'catch_up' | 'overlap' | null = null): void {
  t.core.store.fires.record({ automationId: automation.id, dueAt, state, reason, detail: null, runId: null, recordedAt: dueAt });
}

const noHealth = { lastFireAt: null, lastRunId: null, lastRunStatus: null, consecutiveFailures: 0, missedLast30Days: 0, nextFireAt: '2026-11-21T15:00:00.000Z' };

describe('GET /api/automations and GET /api/automations/{id}', () => {
  it('show the same health for automations in each health state, as built', async () => {
    const expected = new Map<string, Automation['health']>();

    const never = await create('never ran');
    expected.set(never.id, { state: 'healthy', ...noHealth });

    const recovered = await create('failed twice then succeeded');
    addRun(recovered, 'failed');
    addRun(recovered, 'failed');
    const success = addRun(recovered, 'succeeded');
    expected.set(recovered.id, { state: 'healthy', ...noHealth, lastRunId: success.id, lastRunStatus: 'succeeded' });

    const failing = await create('failing every way');
    addRun(failing, 'succeeded');
    addRun(failing, 'failed');
    addRun(failing, 'timed_out');
    const interrupted = addRun(failing, 'interrupted');
    expected.set(failing.id, { state: 'failing', ...noHealth, lastRunId: interrupted.id, lastRunStatus: 'interrupted', consecutiveFailures: 3 });

    // The retried failure counts once (its retry), the cancelled run not at all: two in a row, under the setting's three.
    const retried = await create('retried and cancelled');
    addRun(retried, 'succeeded');
    addRun(retried, 'failed');
    addRun(retried, 'cancelled');
    const first = addRun(retried, 'failed');
    const retry = addRun(retried, 'failed', first.id);
    expected.set(retried.id, { state: 'healthy', ...noHealth, lastRunId: retry.id, lastRunStatus: 'failed', consecutiveFailures: 2 });

    // A run still going is its newest, but not an ending: the three failures before it still count.
    const queued = await create('failing with one running');
    for (let i = 0; i < 3; i++) addRun(queued, 'failed');
    const waiting = addRun(queued, 'running');
    expected.set(queued.id, { state: 'failing', ...noHealth, lastRunId: waiting.id, lastRunStatus: 'running', consecutiveFailures: 3 });

    const missing = await create('missing');
    addFire(missing, '2026-11-21T10:00:00.000Z', 'fired');
    addFire(missing, '2026-11-21T11:00:00.000Z', 'missed');
    addFire(missing, '2026-10-01T11:00:00.000Z', 'missed');
    expected.set(missing.id, { state: 'missing', ...noHealth, lastFireAt: '2026-11-21T11:00:00.000Z', missedLast30Days: 1 });

    // Missed, then on time again; a fire skipped for an overlap is neither missed nor on time.
    const onTimeAgain = await create('on time again');
    addFire(onTimeAgain, '2026-11-21T10:00:00.000Z', 'missed');
    addFire(onTimeAgain, '2026-11-21T11:00:00.000Z', 'skipped', 'catch_up');
    addFire(onTimeAgain, '2026-11-21T12:00:00.000Z', 'fired');
    addFire(onTimeAgain, '2026-11-21T13:00:00.000Z', 'skipped', 'overlap');
    expected.set(onTimeAgain.id, { state: 'healthy', ...noHealth, lastFireAt: '2026-11-21T13:00:00.000Z', missedLast30Days: 2 });

    // A caught-up fire runs late: it is not on time, so the missed one before it still stands.
    const caughtUp = await create('caught up');
    addFire(caughtUp, '2026-11-21T12:00:00.000Z', 'missed');
    addFire(caughtUp, '2026-11-21T13:00:00.000Z', 'caught-up');
    expected.set(caughtUp.id, { state: 'missing', ...noHealth, lastFireAt: '2026-11-21T13:00:00.000Z', missedLast30Days: 1 });

    const both = await create('failing and missing', { enabled: false });
    for (let i = 0; i < 4; i++) addRun(both, 'failed');
    const last = addRun(both, 'timed_out');
    addFire(both, '2026-11-21T11:00:00.000Z', 'skipped', 'catch_up');
    expected.set(both.id, { state: 'failing', ...noHealth, nextFireAt: null, lastRunId: last.id, lastRunStatus: 'timed_out', consecutiveFailures: 5, lastFireAt: '2026-11-21T11:00:00.000Z', missedLast30Days: 1 });

    const listed = await t.api('GET', '/api/automations');
    expect(listed.status).toBe(200);
    const byId = new Map((listed.body.automations as Automation[]).map((automation) => [automation.id, automation]));
    expect([...byId.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [id, health] of expected) {
      const one = (await t.api('GET', `/api/automations/${id}`)).body.automation as Automation;
      expect(byId.get(id), one.name).toEqual(one);
      expect(one.health, one.name).toEqual(health);
      expect([one.lastRunStatus, one.lastRunAt === null], one.name).toEqual([health.lastRunStatus, health.lastRunId === null]);
    }
  });

  it('runs as many statements for many automations as for few, none scanning runs or fires', async () => {
    const { store, services } = t.core;
    const executed = countStatements(store.db);
    try {
      services.automations.list();
      executed.take();
      const few = { automations: services.automations.list().length, statements: executed.take() };
      // 40 more, each with runs and fires: a list of them may not cost more statements.
      for (let i = 0; i < 40; i++) {
        const automation = await create(`more ${i}`);
        addRun(automation, i % 2 ? 'failed' : 'succeeded');
        addFire(automation, '2026-11-21T13:00:00.000Z', i % 3 ? 'fired' : 'missed');
      }
      executed.take();
      const many = { automations: services.automations.list().length, statements: executed.take() };
      expect(many.automations).toBe(few.automations + 40);
      expect(many.statements.map((each) => each.source)).toEqual(few.statements.map((each) => each.source));
      for (const { source, args } of many.statements) {
        const plan = store.db.prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${source}`).all(...args).map((row) => row.detail);
        // The runs and the fires under their names and aliases: none may be scanned (SCAN), only searched (SEARCH).
        const growing = new Set(['runs', 'fires', ...[...source.matchAll(/\b(?:FROM|JOIN)\s+(?:runs|fires)\s+(?:INDEXED BY \w+\s+)?(?!WHERE|ON|JOIN|LEFT|ORDER)(\w+)/gi)].map((match) => match[1])]);
        const scans = plan.filter((detail) => growing.has(/^SCAN (\w+)/.exec(detail)?.[1] ?? ''));
        expect(scans, `${source}\n${plan.join('\n')}`).toEqual([]);
      }
    } finally {
      executed.restore();
    }
  });
});

/** Records each statement the database runs (its SQL and arguments) until restored. */
function countStatements(db: Database.Database) {
  const prototype = Object.getPrototypeOf(db.prepare('SELECT 1')) as Record<string, (...args: unknown[]) => unknown>;
  const methods = ['run', 'get', 'all', 'iterate'] as const;
  const originals = Object.fromEntries(methods.map((name) => [name, prototype[name]]));
  let seen: { source: string; args: unknown[] }[] = [];
  for (const name of methods) {
    prototype[name] = function (this: Database.Statement, ...args: unknown[]) {
      seen.push({ source: this.source, args });
      return originals[name].apply(this, args);
    };
  }
  return {
    take() {
      const taken = seen;
      seen = [];
      return taken;
    },
    restore: () => void Object.assign(prototype, originals),
  };
}
