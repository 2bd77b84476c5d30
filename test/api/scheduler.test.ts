// The scheduler through the API: pause and resume, catchUp, fires landing in the automation's
// thread, and a restart of the core across a fire time (real HTTP, real SQLite, a hand-moved clock).
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore, tempDir } from '../support/core';

const cores: TestCore[] = [];
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close();
});

async function start(clock: ManualClock, dataDir?: string) {
  const core = await startTestCore({ clock, dataDir });
  cores.push(core);
  return core;
}

describe('/api/scheduler', () => {
  it('reports and changes the paused state', async () => {
    const clock = new ManualClock('2026-11-21T10:02:00.000Z');
    const t = await start(clock);
    await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '*/5 * * * *' });
    expect((await t.api('GET', '/api/scheduler')).body.scheduler).toEqual({ paused: false, nextFireAt: '2026-11-21T10:05:00.000Z', enabledAutomations: 1 });

    const paused = await t.api('PUT', '/api/scheduler', { paused: true });
    expect(paused.status).toBe(200);
    expect(paused.body.scheduler).toMatchObject({ paused: true, nextFireAt: null });
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    expect((await t.api('GET', '/api/runs')).body.runs).toEqual([]);

    expect((await t.api('PUT', '/api/scheduler', { paused: 'yes' })).body.error).toMatchObject({ code: 'invalid_field', field: 'paused' });
    expect((await t.api('PUT', '/api/scheduler', { paused: false, nextFireAt: null })).body.error).toMatchObject({ code: 'unknown_field' });
    expect((await t.api('GET', '/api/scheduler')).body.scheduler.paused).toBe(true);
    expect((await t.api('PUT', '/api/scheduler', { paused: false })).body.scheduler).toMatchObject({ paused: false, nextFireAt: '2026-11-21T11:05:00.000Z' });
  });

  it('takes catchUp on create and update, and rejects other values', async () => {
    const t = await start(new ManualClock('2026-11-21T10:02:00.000Z'));
    const created = await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily', catchUp: 'skip' });
    expect(created.body.automation.catchUp).toBe('skip');
    const defaulted = await t.api('POST', '/api/automations', { name: 'b', prompt: 'p', cronExpression: '@daily' });
    expect(defaulted.body.automation.catchUp).toBe('latest');
    const updated = await t.api('PUT', `/api/automations/${defaulted.body.automation.id}`, { catchUp: 'skip' });
    expect(updated.body.automation.catchUp).toBe('skip');
    expect((await t.api('POST', '/api/automations', { name: 'c', prompt: 'p', cronExpression: '@daily', catchUp: 'all' })).body.error).toMatchObject({ code: 'invalid_field', field: 'catchUp' });
  });
});

describe('fires through the API', () => {
  it('land as runs in the automation thread, and a restart across a fire time runs it once, late', async () => {
    const clock = new ManualClock('2026-11-21T10:02:00.000Z');
    const dataDir = tempDir();
    const first = await start(clock, dataDir);
    const { automation } = (await first.api('POST', '/api/automations', { name: 'Hourly', prompt: 'check', cronExpression: '0 * * * *' })).body;
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    const [run] = (await first.api('GET', `/api/runs?sourceId=${automation.id}`)).body.runs;
    expect(run).toMatchObject({ threadId: automation.threadId, scheduledFor: '2026-11-21T11:00:00.000Z', prompt: 'check' });
    expect((await first.api('GET', `/api/threads/${automation.threadId}`)).body.thread.ownerId).toBe(automation.id);
    first.core.store.db.prepare("UPDATE runs SET status = 'succeeded'").run();
    await first.core.close();
    cores.splice(cores.indexOf(first), 1);

    // Closed across 12:00; started again at 12:20.
    clock.jumpTo('2026-11-21T12:20:00.000Z');
    const second = await start(clock, dataDir);
    const runs = (await second.api('GET', `/api/runs?sourceId=${automation.id}`)).body.runs;
    expect(runs.map((r: { scheduledFor: string; createdAt: string }) => [r.scheduledFor, r.createdAt])).toEqual([
      ['2026-11-21T12:00:00.000Z', '2026-11-21T12:20:00.000Z'],
      ['2026-11-21T11:00:00.000Z', '2026-11-21T11:00:00.000Z'],
    ]);
    const late = second.core.store.db.prepare<[], { display_text: string }>("SELECT display_text FROM activity WHERE kind = 'system' AND display_text LIKE 'Late run%'").all();
    expect(late.map((line) => line.display_text)).toEqual([expect.stringContaining('Late run of "Hourly": it was due at 2026-11-21T12:00:00.000Z and started at 2026-11-21T12:20:00.000Z')]);
  });
});
