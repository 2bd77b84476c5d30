// The scheduler against a real SQLite file and a clock moved by hand: fires on time, in the
// automation's timezone, skips overlaps, catches up missed fires once, and obeys every change at once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../src/main/core/logger';
import { createScheduler } from '../../src/main/core/scheduler/scheduler';
import type { Store } from '../../src/main/core/store';
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
  services.scheduler.start();
});
afterEach(() => {
  services.scheduler.stop();
  temp.remove();
});

const create = (fields: { cronExpression: string; timezone?: string; catchUp?: 'latest' | 'skip'; enabled?: boolean; name?: string }) =>
  services.automations.create({ name: 'job', prompt: 'do the thing', timezone: 'UTC', enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh', ...fields });

const runsOf = (id: string) => store.runs.list({ sourceId: id, limit: 500 }).reverse();
const scheduled = (id: string) => runsOf(id).map((run) => run.scheduledFor);
const finishAll = () => store.db.prepare("UPDATE runs SET status = 'succeeded' WHERE status IN ('queued', 'running')").run();
const systemLines = () =>
  store.db.prepare<[], { display_text: string; raw: string }>("SELECT display_text, raw FROM activity WHERE kind = 'system' ORDER BY line").all();

describe('firing', () => {
  it('fires at each due time, queues the prompt in the automation thread, labelled as scheduled', () => {
    const automation = create({ cronExpression: '*/5 * * * *' });
    clock.advanceTo('2026-11-21T10:04:59.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    clock.advanceTo('2026-11-21T10:05:00.000Z');
    const [run] = runsOf(automation.id);
    expect(run).toMatchObject({ source: 'automation', sourceId: automation.id, threadId: automation.threadId, prompt: 'do the thing', status: 'queued', scheduledFor: '2026-11-21T10:05:00.000Z', createdAt: '2026-11-21T10:05:00.000Z' });
    finishAll();
    clock.advanceTo('2026-11-21T10:10:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T10:05:00.000Z', '2026-11-21T10:10:00.000Z']);
    expect(services.automations.get(automation.id)).toMatchObject({ lastRunAt: '2026-11-21T10:10:00.000Z', lastRunStatus: 'queued' });
  });

  it('fires in the automation timezone', () => {
    const automation = create({ cronExpression: '0 12 * * *', timezone: 'Asia/Kolkata' });
    clock.advanceTo('2026-11-22T10:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-22T06:30:00.000Z']);
  });

  it('skips a fire while the previous run is still queued, and says so', () => {
    const automation = create({ cronExpression: '* * * * *' });
    clock.advanceTo('2026-11-21T10:03:00.000Z');
    clock.advanceTo('2026-11-21T10:04:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(1);
    const [line] = systemLines();
    expect(line.display_text).toContain('Skipped the 2026-11-21T10:04:00.000Z run');
    expect(JSON.parse(line.raw)).toMatchObject({ event: 'fire_skipped', reason: 'overlap', automationId: automation.id });
    finishAll();
    clock.advanceTo('2026-11-21T10:05:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T10:03:00.000Z', '2026-11-21T10:05:00.000Z']);
  });

  it('never fires a disabled automation, and an enabled one starts afresh with no catch-up', () => {
    const automation = create({ cronExpression: '* * * * *', enabled: false });
    clock.advanceTo('2026-11-22T10:02:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    services.automations.update(automation.id, { enabled: true });
    expect(runsOf(automation.id)).toHaveLength(0);
    clock.advanceTo('2026-11-22T10:03:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-22T10:03:00.000Z']);
    services.automations.update(automation.id, { enabled: false });
    finishAll();
    clock.advanceTo('2026-11-22T12:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(1);
  });

  it('takes a changed schedule into account at once, and a deleted automation never fires', () => {
    const automation = create({ cronExpression: '0 * * * *' });
    services.automations.update(automation.id, { cronExpression: '*/2 * * * *' });
    clock.advanceTo('2026-11-21T10:04:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T10:04:00.000Z']);
    finishAll();
    services.automations.update(automation.id, { timezone: 'Europe/Berlin', cronExpression: '30 11 * * *' });
    clock.advanceTo('2026-11-21T10:31:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T10:04:00.000Z', '2026-11-21T10:30:00.000Z']);
    const other = create({ cronExpression: '* * * * *' });
    services.automations.delete(other.id);
    clock.advanceTo('2026-11-21T10:40:00.000Z');
    expect(store.runs.list({ limit: 500 }).filter((run) => run.sourceId === other.id)).toHaveLength(0);
    expect(services.scheduler.state().enabledAutomations).toBe(1);
  });
});

describe('when things go wrong', () => {
  it('retries fires it could not store, and keeps their due time', () => {
    const automation = create({ cronExpression: '*/5 * * * *' });
    vi.spyOn(store.runs, 'insert').mockImplementationOnce(() => {
      throw new Error('disk I/O error');
    });
    clock.advanceTo('2026-11-21T10:05:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    clock.advanceTo('2026-11-21T10:05:05.000Z');
    const [run] = runsOf(automation.id);
    expect(run).toMatchObject({ scheduledFor: '2026-11-21T10:05:00.000Z', status: 'queued' });
    // Stored on the retry, a few seconds after the due time.
    expect(Date.parse(run.createdAt) - Date.parse('2026-11-21T10:05:00.000Z')).toBeGreaterThan(4_000);
  });

  it('does not fire a time again when the clock is set back', () => {
    const automation = create({ cronExpression: '0 * * * *' });
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    finishAll();
    clock.moveSilently('2026-11-21T10:30:00.000Z');
    services.scheduler.sync(automation.id);
    clock.advanceTo('2026-11-21T12:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T11:00:00.000Z', '2026-11-21T12:00:00.000Z']);
  });
});

describe('pause and resume', () => {
  it('fires nothing while paused and does not catch up the paused time', () => {
    const automation = create({ cronExpression: '*/10 * * * *' });
    services.scheduler.setPaused(true);
    expect(services.scheduler.state()).toMatchObject({ paused: true, nextFireAt: null });
    clock.advanceTo('2026-11-21T12:05:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    services.scheduler.setPaused(false);
    expect(services.scheduler.state()).toMatchObject({ paused: false, nextFireAt: '2026-11-21T12:10:00.000Z' });
    clock.advanceTo('2026-11-21T12:10:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T12:10:00.000Z']);
  });

  it('stays paused across a restart', () => {
    const automation = create({ cronExpression: '* * * * *' });
    services.scheduler.setPaused(true);
    services.scheduler.stop();
    const again = servicesFor(store, temp.dir, clock);
    again.scheduler.start();
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    again.scheduler.stop();
  });
});

describe('missed fires', () => {
  function restartAt(time: string) {
    services.scheduler.stop();
    clock.jumpTo(time);
    const scheduler = createScheduler({ store, clock, logger: silentLogger() });
    scheduler.start();
    return scheduler;
  }

  it('after a restart, runs the latest missed fire once, late, and skips the older ones with a line', () => {
    const automation = create({ cronExpression: '0 * * * *' });
    const scheduler = restartAt('2026-11-21T15:20:00.000Z');
    const runs = runsOf(automation.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ scheduledFor: '2026-11-21T15:00:00.000Z', createdAt: '2026-11-21T15:20:00.000Z' });
    const lines = systemLines().map((line) => line.display_text);
    expect(lines.some((text) => text.includes('Skipped 4 missed run(s)'))).toBe(true);
    expect(lines.some((text) => text.includes('Late run') && text.includes('due at 2026-11-21T15:00:00.000Z') && text.includes('started at 2026-11-21T15:20:00.000Z'))).toBe(true);
    // The late run counts as that fire: the next one is on schedule.
    finishAll();
    clock.advanceTo('2026-11-21T16:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T15:00:00.000Z', '2026-11-21T16:00:00.000Z']);
    scheduler.stop();
  });

  it('a restart with nothing missed runs nothing extra', () => {
    const automation = create({ cronExpression: '0 * * * *' });
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    const scheduler = restartAt('2026-11-21T11:30:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T11:00:00.000Z']);
    expect(systemLines()).toEqual([]);
    scheduler.stop();
  });

  it('only looks back 24 hours, and says older fires were skipped', () => {
    const automation = create({ cronExpression: '0 9 * * *' });
    const scheduler = restartAt('2026-11-25T10:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-25T09:00:00.000Z']);
    expect(systemLines().map((line) => line.display_text)).toContainEqual(expect.stringContaining('Skipped 3 missed run(s) of "job" due from 2026-11-22T09:00:00.000Z'));
    scheduler.stop();
  });

  it('runs nothing late when every missed fire is older than 24 hours', () => {
    const automation = create({ cronExpression: '0 9 1 * *' });
    const scheduler = restartAt('2026-12-05T10:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    expect(systemLines()[0].display_text).toContain('none of them was due within the last 24 hours');
    scheduler.stop();
  });

  it('counts a long absence without walking every missed minute', () => {
    const automation = create({ cronExpression: '* * * * *' });
    const scheduler = restartAt('2026-12-21T10:00:30.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-12-21T10:00:00.000Z']);
    expect(systemLines()[0].display_text).toContain('Skipped more than 100 missed run(s)');
    scheduler.stop();
  });

  it('with catchUp "skip" runs none of the missed fires', () => {
    const automation = create({ cronExpression: '0 * * * *', catchUp: 'skip' });
    const scheduler = restartAt('2026-11-21T15:20:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(0);
    expect(systemLines()[0].display_text).toContain('Skipped 5 missed run(s)');
    clock.advanceTo('2026-11-21T16:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T16:00:00.000Z']);
    scheduler.stop();
  });

  it('catches up at once when told the machine woke, before any timer runs', () => {
    const automation = create({ cronExpression: '0 * * * *' });
    // The clock moved with no timer run (the process was frozen); the desktop app reports the resume.
    clock.moveSilently('2026-11-21T13:05:00.000Z');
    services.scheduler.wake();
    expect(scheduled(automation.id)).toEqual(['2026-11-21T13:00:00.000Z']);
  });

  it('notices a wake from sleep (a timer far later than asked) and catches up once', () => {
    const automation = create({ cronExpression: '*/30 * * * *' });
    clock.jumpTo('2026-11-21T13:10:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T13:00:00.000Z']);
    expect(systemLines().some((line) => line.display_text.includes('Late run'))).toBe(true);
    finishAll();
    clock.advanceTo('2026-11-21T13:30:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-21T13:00:00.000Z', '2026-11-21T13:30:00.000Z']);
  });
});

describe('daylight saving time', () => {
  it('fires a time skipped by the spring jump once, at the end of the gap (New York)', () => {
    clock.jumpTo('2027-03-13T12:00:00.000Z');
    const automation = create({ cronExpression: '30 2 * * *', timezone: 'America/New_York' });
    for (const day of ['2027-03-14T12:00:00.000Z', '2027-03-15T12:00:00.000Z']) {
      clock.advanceTo(day);
      finishAll();
    }
    expect(scheduled(automation.id)).toEqual(['2027-03-14T07:00:00.000Z', '2027-03-15T06:30:00.000Z']);
  });

  it('fires a repeated time once in the autumn (Berlin), every half hour', () => {
    clock.jumpTo('2027-10-30T22:00:00.000Z');
    const automation = create({ cronExpression: '*/30 * * * *', timezone: 'Europe/Berlin' });
    for (let minutes = 30; minutes <= 5 * 60; minutes += 30) {
      clock.advanceTo(new Date(Date.parse('2027-10-30T22:00:00.000Z') + minutes * 60_000));
      finishAll();
    }
    // 02:00 and 02:30 happen twice (00:00Z and 00:30Z in summer time, 01:00Z and 01:30Z in winter time): once each.
    expect(scheduled(automation.id)).toEqual([
      '2027-10-30T22:30:00.000Z', '2027-10-30T23:00:00.000Z', '2027-10-30T23:30:00.000Z',
      '2027-10-31T00:00:00.000Z', '2027-10-31T00:30:00.000Z',
      '2027-10-31T02:00:00.000Z', '2027-10-31T02:30:00.000Z', '2027-10-31T03:00:00.000Z',
    ]);
  });
});

describe('a stored schedule that no longer compiles', () => {
  it('is left out, and every other automation still fires', () => {
    const broken = create({ cronExpression: '0 * * * *' });
    const healthy = create({ cronExpression: '*/5 * * * *' });
    services.scheduler.stop();
    store.db.prepare("UPDATE automations SET cron_expression = 'not a cron' WHERE id = ?").run(broken.id);
    services.scheduler.start();
    clock.advanceTo('2026-11-21T11:00:00.000Z');
    expect(runsOf(broken.id)).toHaveLength(0);
    expect(scheduled(healthy.id)).toEqual(['2026-11-21T10:05:00.000Z']);
  });
});
