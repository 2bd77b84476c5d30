// Every due fire accounted for, against a real SQLite file and a clock moved by hand: fired,
// caught-up, skipped with why, missed while Steward was off (one feed line and one notice for the
// time it was off), the automation's health, its unhealthy notice once and its recovery once, and
// the agenda of past and future fires.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noticeOf } from '../../src/main/core/services/notices';
import type { Store } from '../../src/main/core/store';
import { afterRun } from '../../src/main/core/services/after-run';
import { ManualClock } from '../support/clock';
import { servicesFor, tempStore } from '../support/core';

let temp: ReturnType<typeof tempStore>;
let store: Store;
let clock: ManualClock;
let services: ReturnType<typeof servicesFor>;

beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  clock = new ManualClock('2026-11-21T10:02:00.000Z');
  services = servicesFor(store, temp.dir, clock);
  services.instances.ensureDefault();
  services.scheduler.start();
});
afterEach(() => {
  services.scheduler.stop();
  temp.remove();
});

const create = (fields: { cronExpression: string; name?: string; catchUp?: 'latest' | 'skip' }) =>
  services.automations.create({ name: 'job', prompt: 'do the thing', timezone: 'UTC', enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh', ...fields });
const fires = (id: string) => services.fires.list(id, { since: '2026-01-01T00:00:00.000Z', limit: 1000 }).reverse();
const notices = () =>
  store.db
    .prepare<[], { raw: string }>("SELECT raw FROM activity WHERE kind = 'system' ORDER BY line")
    .all()
    .map((line) => noticeOf(line.raw))
    .filter((notice) => notice !== undefined);
/** Ends every queued or running run of the automation with this status, as the runner would (afterRun included). */
function finishRuns(id: string, status: 'succeeded' | 'failed'): void {
  store.transaction(() => {
    for (const run of store.runs.list({ sourceId: id, limit: 500 }).filter((each) => each.status === 'queued' || each.status === 'running')) {
      store.runs.claim(run.id, clock.now().toISOString());
      store.runs.finish(run.id, status, clock.now().toISOString(), status === 'failed' ? 'exit 1' : null, null);
      afterRun(store, store.runs.get(run.id)!, clock.now());
    }
  });
}

describe('fire records', () => {
  it('records a fire on time with its run, and one skipped for an overlap with why', () => {
    const automation = create({ cronExpression: '* * * * *' });
    clock.advanceTo('2026-11-21T10:03:00.000Z');
    clock.advanceTo('2026-11-21T10:04:00.000Z');
    const [first, second] = fires(automation.id);
    expect(first).toMatchObject({ dueAt: '2026-11-21T10:03:00.000Z', state: 'fired', reason: null, runStatus: 'queued' });
    expect(first.runId).toBe(store.runs.list({ sourceId: automation.id, limit: 5 })[0].id);
    expect(second).toMatchObject({ dueAt: '2026-11-21T10:04:00.000Z', state: 'skipped', reason: 'overlap', runId: null, detail: 'Not run: its previous run is still queued or running.' });
  });

  it('skips a fire while its instance is stopped', () => {
    const automation = create({ cronExpression: '* * * * *' });
    services.instances.stop(automation.instanceId);
    clock.advanceTo('2026-11-21T10:03:00.000Z');
    expect(fires(automation.id)).toEqual([expect.objectContaining({ state: 'skipped', reason: 'instance_stopped' })]);
    expect(store.runs.list({ sourceId: automation.id, limit: 5 })).toHaveLength(0);
  });

  it('answers 404 for an unknown automation', () => {
    expect(() => services.fires.list('aut_nope', { limit: 5 })).toThrow(/No automation aut_nope/);
  });
});

describe('Steward off across fires', () => {
  function restartAt(time: string) {
    services.scheduler.stop();
    clock.jumpTo(time);
    services = servicesFor(store, temp.dir, clock);
    services.scheduler.start();
  }

  it('records the missed fires and the caught-up one, and says once for how long Steward was off', () => {
    const hourly = create({ cronExpression: '0 * * * *', name: 'Hourly' });
    const daily = create({ cronExpression: '30 11 * * *', name: 'Daily', catchUp: 'skip' });
    clock.advanceTo('2026-11-21T10:30:00.000Z');
    restartAt('2026-11-21T13:20:00.000Z');
    expect(fires(hourly.id).map((fire) => [fire.dueAt.slice(11, 16), fire.state, fire.reason])).toEqual([
      ['11:00', 'missed', 'steward_off'],
      ['12:00', 'missed', 'steward_off'],
      ['13:00', 'caught-up', null],
    ]);
    expect(fires(daily.id).map((fire) => [fire.dueAt.slice(11, 16), fire.state, fire.reason])).toEqual([['11:30', 'missed', 'steward_off']]);
    const off = notices().filter((notice) => notice.kind === 'steward-was-off');
    expect(off).toHaveLength(1);
    expect(off[0].title).toMatch(/^Steward was off \d\d:\d\d–\d\d:\d\d$/);
    expect(off[0].body).toBe('3 fires of 2 automations missed, 1 caught up');
    // Both missed a fire: each is unhealthy, once.
    expect(notices().filter((notice) => notice.kind === 'automation-unhealthy').map((notice) => notice.automationId).sort()).toEqual([hourly.id, daily.id].sort());
    expect(services.automations.get(daily.id).health).toMatchObject({ state: 'missing', missedLast30Days: 1, lastFireAt: '2026-11-21T11:30:00.000Z' });
  });

  it('says nothing of an off time in which nothing was due', () => {
    create({ cronExpression: '0 0 * * *' });
    restartAt('2026-11-21T11:00:00.000Z');
    expect(notices()).toEqual([]);
  });

  it('a missing automation recovers at its next fire on time, with one notice', () => {
    const hourly = create({ cronExpression: '0 * * * *', name: 'Hourly' });
    restartAt('2026-11-21T12:20:00.000Z');
    finishRuns(hourly.id, 'succeeded');
    expect(services.automations.get(hourly.id).health.state).toBe('missing');
    clock.advanceTo('2026-11-21T13:00:00.000Z');
    expect(services.automations.get(hourly.id).health.state).toBe('healthy');
    expect(notices().map((notice) => notice.kind)).toEqual(['automation-unhealthy', 'steward-was-off', 'automation-recovered']);
  });
});

describe('health', () => {
  it('N failures in a row then a success: exactly two notices', () => {
    const automation = create({ cronExpression: '* * * * *', name: 'Flaky' });
    for (const minute of ['03', '04', '05', '06']) {
      clock.advanceTo(`2026-11-21T10:${minute}:00.000Z`);
      finishRuns(automation.id, 'failed');
    }
    expect(services.automations.get(automation.id).health).toMatchObject({ state: 'failing', consecutiveFailures: 4, lastRunStatus: 'failed' });
    clock.advanceTo('2026-11-21T10:07:00.000Z');
    finishRuns(automation.id, 'succeeded');
    const told = notices();
    expect(told.map((notice) => [notice.kind, notice.title])).toEqual([
      ['automation-unhealthy', 'Flaky is failing'],
      ['automation-recovered', 'Flaky recovered'],
    ]);
    expect(told[0].body).toBe('"Flaky" failed 3 times in a row (last run failed).');
    expect(services.automations.get(automation.id).health).toMatchObject({ state: 'healthy', consecutiveFailures: 0, nextFireAt: '2026-11-21T10:08:00.000Z' });
  });

  it('follows the unhealthy-after setting', () => {
    services.settings.update({ notifications: { unhealthyAfter: 1 } });
    const automation = create({ cronExpression: '* * * * *' });
    clock.advanceTo('2026-11-21T10:03:00.000Z');
    finishRuns(automation.id, 'failed');
    expect(notices().map((notice) => notice.kind)).toEqual(['automation-unhealthy']);
  });
});

describe('the agenda', () => {
  it('lists past fires with what became of them and future ones in order, paged without a gap or a repeat', () => {
    const a = create({ cronExpression: '0 * * * *', name: 'A' });
    const b = create({ cronExpression: '0 */2 * * *', name: 'B' });
    clock.advanceTo('2026-11-21T12:30:00.000Z');
    const whole = services.agenda.get({ from: '2026-11-21T10:00:00.000Z', to: '2026-11-21T16:00:00.000Z', limit: 100 });
    expect(whole.entries.map((entry) => [entry.dueAt.slice(11, 16), entry.automationName, entry.state])).toEqual([
      ['11:00', 'A', 'fired'],
      ['12:00', 'A', 'skipped'],
      ['12:00', 'B', 'fired'],
      ['13:00', 'A', 'due'],
      ['14:00', 'A', 'due'],
      ['14:00', 'B', 'due'],
      ['15:00', 'A', 'due'],
    ]);
    expect(whole.entries[0]).toMatchObject({ automationId: a.id, runStatus: 'queued', forecastUsd: null });
    expect(whole.entries[2]).toMatchObject({ automationId: b.id });
    expect(whole.nextAfter).toBeNull();

    const pages: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 10; i++) {
      const page = services.agenda.get({ from: '2026-11-21T10:00:00.000Z', to: '2026-11-21T16:00:00.000Z', after, limit: 2 });
      pages.push(...page.entries.map((entry) => `${entry.dueAt}|${entry.automationName}`));
      if (page.nextAfter === null) break;
      after = page.nextAfter;
    }
    expect(pages).toEqual(whole.entries.map((entry) => `${entry.dueAt}|${entry.automationName}`));
  });

  it('forecasts from the average reported cost', () => {
    const automation = create({ cronExpression: '0 0 * * *', name: 'Nightly' });
    clock.advanceTo('2026-11-22T00:00:00.000Z');
    const [run] = store.runs.list({ sourceId: automation.id, limit: 1 });
    store.runs.setUsage(run.id, { costUsd: 0.25, inputTokens: 1000, outputTokens: 100 });
    const agenda = services.agenda.get({ limit: 100 });
    expect(agenda.entries.filter((entry) => entry.state === 'due').every((entry) => entry.forecastUsd === 0.25)).toBe(true);
    expect(agenda.forecastMonthUsd).toBe(7.5);
  });

  it('refuses a window longer than 35 days', () => {
    expect(() => services.agenda.get({ from: '2026-11-01T00:00:00.000Z', to: '2026-12-31T00:00:00.000Z', limit: 10 })).toThrow(/longer than 35 days/);
  });
});
