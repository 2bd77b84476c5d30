// `at` (once) and `every` (an interval from an anchor) through the real scheduler, on a real SQLite
// file and a clock moved by hand: on time, in the automation's timezone, across daylight saving,
// across a machine sleep and across Steward being off; an `at` automation is done after its fire.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutomationCreate, type AutomationTrigger } from '../../src/shared/contract';
import { localTimeProblem } from '../../src/shared/once-every';
import { triggerWords } from '../../src/shared/trigger-words';
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
  clock = new ManualClock('2026-11-27T10:02:00.000Z');
  services = servicesFor(store, temp.dir, clock);
  services.instances.ensureDefault();
  services.scheduler.start();
});
afterEach(() => {
  services.scheduler.stop();
  temp.remove();
});

const create = (trigger: AutomationTrigger | Record<string, unknown>, fields: { timezone?: string; catchUp?: 'latest' | 'skip' } = {}) =>
  services.automations.create({ name: 'job', prompt: 'do the thing', trigger: trigger, timezone: 'UTC', enabled: true, notify: 'default', memory: 'fresh', ...fields });
const runsOf = (id: string) => store.runs.list({ sourceId: id, limit: 500 }).reverse();
const scheduled = (id: string) => runsOf(id).map((run) => run.scheduledFor);
const finishAll = () => store.db.prepare("UPDATE runs SET status = 'succeeded' WHERE status IN ('queued', 'running')").run();
const fires = (id: string) => services.fires.list(id, { since: '2000-01-01T00:00:00.000Z', limit: 1000 }).reverse();

/** Stops Steward, moves the clock while it is off, and starts it again on the same data. */
function offUntil(target: string): void {
  services.scheduler.stop();
  clock.moveSilently(target);
  services = servicesFor(store, temp.dir, clock);
  services.scheduler.start();
}

describe('at: once', () => {
  it('fires once at its wall time in its timezone, then is done: disabled, kept, with its run and fire', () => {
    const automation = create({ at: '2026-11-28T09:00' }, { timezone: 'Europe/Berlin' });
    expect(automation.nextRuns).toEqual(['2026-11-28T08:00:00.000Z']);
    expect(services.agenda.get({ from: '2026-11-28T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z', limit: 100 }).entries.map((entry) => entry.dueAt)).toEqual(['2026-11-28T08:00:00.000Z']);
    clock.advanceTo('2026-11-28T07:59:59.000Z');
    expect(runsOf(automation.id)).toEqual([]);
    clock.advanceTo('2026-11-28T08:00:00.000Z');
    expect(scheduled(automation.id)).toEqual(['2026-11-28T08:00:00.000Z']);
    const done = services.automations.get(automation.id);
    expect(done).toMatchObject({ enabled: false, nextRuns: [], lastRunStatus: 'queued' });
    expect(fires(automation.id).map((fire) => fire.state)).toEqual(['fired']);
    finishAll();
    clock.jumpTo('2026-12-30T00:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(1);
    // Switched back on with its time gone: refused, not fired again.
    expect(() => services.automations.update(automation.id, { enabled: true })).toThrow(/is in the past/);
  });

  it('takes an instant with its offset as written, and refuses a time in the past or one that does not exist', () => {
    expect(create({ at: '2026-11-28T09:00:00+05:30' }).nextRuns).toEqual(['2026-11-28T03:30:00.000Z']);
    expect(() => create({ at: '2026-11-27T09:00' })).toThrow(/trigger.at 2026-11-27T09:00 \(UTC\) is in the past/);
    expect(localTimeProblem('2027-02-30T09:00')).toMatch(/is not a time/);
    expect(localTimeProblem('tomorrow at nine')).toMatch(/write it as 2026-11-28T09:00/);
  });

  it('missed while Steward was off: runs late once under latest, is recorded missed under skip; either way it is done', () => {
    const latest = create({ at: '2026-11-27T12:00' });
    const skip = create({ at: '2026-11-27T12:00' }, { catchUp: 'skip' });
    offUntil('2026-11-27T15:00:00.000Z');
    expect(scheduled(latest.id)).toEqual(['2026-11-27T12:00:00.000Z']);
    expect(fires(latest.id).map((fire) => fire.state)).toEqual(['caught-up']);
    expect(runsOf(skip.id)).toEqual([]);
    expect(fires(skip.id).map((fire) => [fire.state, fire.reason])).toEqual([['missed', 'steward_off']]);
    for (const automation of [latest, skip]) expect(services.automations.get(automation.id).enabled).toBe(false);
    offUntil('2026-11-28T15:00:00.000Z');
    expect(runsOf(latest.id)).toHaveLength(1);
  });
});

describe('every: an interval from an anchor', () => {
  it('fires every 90 minutes from its anchor, in real time across the autumn change (Berlin)', () => {
    clock.jumpTo('2026-10-24T22:00:00.000Z');
    const automation = create({ every: { minutes: 90, from: '2026-10-25T00:30' } }, { timezone: 'Europe/Berlin' });
    // 00:30 CEST is 22:30 UTC; the clocks go back at 01:00 UTC; the steps stay 90 real minutes.
    expect(automation.nextRuns).toEqual(['2026-10-24T22:30:00.000Z', '2026-10-25T00:00:00.000Z', '2026-10-25T01:30:00.000Z', '2026-10-25T03:00:00.000Z', '2026-10-25T04:30:00.000Z']);
    for (const at of automation.nextRuns.slice(0, 3)) {
      clock.advanceTo(at);
      finishAll();
    }
    expect(scheduled(automation.id)).toEqual(automation.nextRuns.slice(0, 3));
  });

  it('keeps a daily time in wall time across daylight saving (09:00 Berlin stays 09:00)', () => {
    clock.jumpTo('2026-10-23T12:00:00.000Z');
    const automation = create({ every: { days: 1, from: '2026-10-24T09:00' } }, { timezone: 'Europe/Berlin' });
    expect(automation.nextRuns.slice(0, 3)).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z', '2026-10-26T08:00:00.000Z']);
    expect(triggerWords(automation.trigger!, automation.timezone)).toBe('Every day from 2026-10-24 09:00');
  });

  it('counts from when it was made without an anchor, and catches up once after a sleep, skipping the rest', () => {
    const automation = create({ every: { hours: 2 } });
    expect(automation.trigger?.every?.from).toBe('2026-11-27T10:02:00.000Z');
    // Its first fire is one interval on, as an interval timer's is.
    expect(automation.nextRuns[0]).toBe('2026-11-27T12:02:00.000Z');
    clock.advanceTo('2026-11-27T12:02:00.000Z');
    finishAll();
    clock.sleepThrough('2026-11-27T21:00:00.000Z');
    clock.jumpTo('2026-11-27T21:01:00.000Z');
    services.scheduler.wake();
    expect(scheduled(automation.id)).toEqual(['2026-11-27T12:02:00.000Z', '2026-11-27T20:02:00.000Z']);
    expect(fires(automation.id).filter((fire) => fire.reason === 'catch_up').map((fire) => fire.dueAt)).toEqual(['2026-11-27T14:02:00.000Z', '2026-11-27T16:02:00.000Z', '2026-11-27T18:02:00.000Z']);
  });

  it('refuses an interval with two units or none, two kinds at once, and a schedule with a trigger', () => {
    const problem = (value: unknown) => AutomationCreate.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    const base = { name: 'x', prompt: 'p' };
    expect(problem({ ...base, trigger: { every: { minutes: 5, hours: 1 } } })).toEqual(['trigger.every: must give exactly one of minutes, hours or days']);
    expect(problem({ ...base, trigger: { every: {} } })).toEqual(['trigger.every: must give exactly one of minutes, hours or days']);
    expect(problem({ ...base, trigger: { at: '2026-12-01T09:00', every: { minutes: 5 } } })).toEqual(['trigger: must name exactly one of after, at, every, watch, git, mail, feed']);
    expect(problem({ ...base, cronExpression: '* * * * *', trigger: { at: '2026-12-01T09:00' } })).toEqual([expect.stringMatching(/^cronExpression: Give either cronExpression/)]);
  });
});
