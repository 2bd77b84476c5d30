// Budgets and the scheduler, on a real SQLite file with the clock moved by hand: a day's budget
// spent skips the next fires (a feed line each, one notice), and the next day in the
// automation's timezone it fires again; an instance's budget counts all its runs, in UTC.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/main/core/store';
import type { Budget } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { servicesFor, tempStore } from '../support/core';

let temp: ReturnType<typeof tempStore>;
let store: Store;
let clock: ManualClock;
let services: ReturnType<typeof servicesFor>;

beforeEach(() => {
  temp = tempStore();
  store = temp.store;
  clock = new ManualClock('2026-11-25T10:02:00.000Z');
  services = servicesFor(store, temp.dir, clock);
  services.scheduler.start();
});
afterEach(() => {
  services.scheduler.stop();
  temp.remove();
});

const create = (budget: Budget, timezone = 'Europe/Berlin') =>
  services.automations.create({ name: 'Daily digest', prompt: 'digest', cronExpression: '0 * * * *', timezone, enabled: true, catchUp: 'latest', notify: 'default', memory: 'fresh', budget });

const runsOf = (id: string) => store.runs.list({ sourceId: id, limit: 500 }).reverse();

/** Ends every queued run as its agent would have, having spent this much. */
function finishAll(costUsd: number | null, tokens = 0): void {
  for (const run of store.runs.list({ status: 'queued', limit: 500 })) {
    store.runs.setUsage(run.id, { costUsd, inputTokens: tokens, outputTokens: 0 });
    store.runs.claim(run.id, clock.now().toISOString());
    store.runs.finish(run.id, 'succeeded', clock.now().toISOString(), null, null);
  }
}

const lines = () => store.db.prepare<[], { display_text: string; raw: string; label: string }>("SELECT display_text, raw, label FROM activity WHERE kind = 'system' ORDER BY line").all();
const notices = () => lines().filter((line) => JSON.parse(line.raw).type === 'notice');
const skips = () => lines().filter((line) => JSON.parse(line.raw).event === 'run_skipped');

describe('a day budget', () => {
  it('skips the fires after it is spent, with one notice, and fires again the next day in its timezone', () => {
    const automation = create({ usdPerDay: 2 });
    clock.advanceTo('2026-11-25T11:00:00.000Z');
    finishAll(1.5);
    clock.advanceTo('2026-11-25T12:00:00.000Z');
    finishAll(0.54);
    expect(runsOf(automation.id)).toHaveLength(2);

    // $2.04 spent of $2.00: the next two fires start nothing.
    clock.advanceTo('2026-11-25T14:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(2);
    const message = 'Over budget: automation "Daily digest" spent $2.04 of its $2.00 a day; it resets at 2026-11-26T00:00:00+01:00';
    expect(skips().map((line) => line.display_text)).toEqual([`Run not started. ${message}.`, `Run not started. ${message}.`]);
    expect(skips().every((line) => line.label === 'cron')).toBe(true);
    expect(notices().map((line) => JSON.parse(line.raw))).toEqual([
      { type: 'notice', kind: 'over-budget', title: 'Automation "Daily digest" is over budget', body: `${message}. Its runs do not start until then.`, automationId: automation.id, instanceId: automation.instanceId },
    ]);

    // 23:00 in Berlin is still the same day there (and 22:00 UTC); midnight in Berlin is 23:00 UTC.
    clock.advanceTo('2026-11-25T22:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(2);
    clock.advanceTo('2026-11-25T23:00:00.000Z');
    expect(runsOf(automation.id).map((run) => run.scheduledFor)).toEqual(['2026-11-25T11:00:00.000Z', '2026-11-25T12:00:00.000Z', '2026-11-25T23:00:00.000Z']);
    expect(notices()).toHaveLength(1);
  });

  it('notices once more when the next day is spent too', () => {
    const automation = create({ usdPerDay: 1 });
    clock.advanceTo('2026-11-25T11:00:00.000Z');
    finishAll(1);
    clock.advanceTo('2026-11-25T13:00:00.000Z');
    clock.advanceTo('2026-11-25T23:00:00.000Z');
    finishAll(1);
    clock.advanceTo('2026-11-26T01:00:00.000Z');
    expect(runsOf(automation.id)).toHaveLength(2);
    expect(notices().map((line) => line.display_text)).toEqual([
      expect.stringContaining('it resets at 2026-11-26T00:00:00+01:00'),
      expect.stringContaining('it resets at 2026-11-27T00:00:00+01:00'),
    ]);
  });

  it("counts tokens for agents that report no cost, and an instance's budget counts all its runs in UTC", () => {
    const first = create({ tokensPerDay: 10_000 });
    clock.advanceTo('2026-11-25T11:00:00.000Z');
    finishAll(null, 12_000);
    clock.advanceTo('2026-11-25T12:00:00.000Z');
    expect(runsOf(first.id)).toHaveLength(1);
    expect(skips().at(-1)!.display_text).toContain('spent 12,000 tokens of its 10,000 tokens a day');

    const instance = services.instances.get(first.instanceId);
    services.instances.update(instance.id, { budget: { usdPerMonth: 5 } });
    const second = create({});
    clock.advanceTo('2026-11-25T13:00:00.000Z');
    finishAll(5);
    clock.advanceTo('2026-11-25T14:00:00.000Z');
    expect(runsOf(second.id)).toHaveLength(1);
    expect(skips().at(-1)!.display_text).toContain(`instance "${instance.name}" spent $5.00 of its $5.00 a month; it resets at 2026-12-01T00:00:00+00:00`);
    expect(notices().map((line) => JSON.parse(line.raw).title)).toEqual(['Automation "Daily digest" is over budget', `Instance "${instance.name}" is over budget`]);
    // A new month in UTC: both run again (the first automation's own day has turned too).
    clock.advanceTo('2026-12-01T00:00:00.000Z');
    expect(runsOf(second.id).at(-1)!.scheduledFor).toBe('2026-12-01T00:00:00.000Z');
  });
});
