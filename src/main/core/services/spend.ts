// An automation's spend: its runs of the last 30 days day by day (in its timezone), its average
// cost per run, and a forecast for the next 30 days from its schedule (a chained automation
// fires as often as the one it follows).
import type { Spend } from '../../../shared/contract';
import { reportsCost } from '../../../shared/agent-costs';
import type { Schedule } from '../../../shared/cron';
import { followedId, scheduleOf } from '../scheduler/schedule-of';
import { AppError } from '../../../shared/errors';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import type { RunSpend } from '../store/repositories/spend';
import { dayOf } from './budget-periods';

const days = 30;
const dayMs = 24 * 60 * 60 * 1000;
/** Fires counted one by one; a busier schedule (every minute: 43,200 in 30 days) is extrapolated from the span they cover. */
const maxCounted = 1_000;
/** How far back a chain is followed to the schedule at its head. */
const maxChain = 20;

type SpendDay = Spend['days'][number];

const failed = new Set(['failed', 'timed_out', 'interrupted']);

function emptyDay(date: string): SpendDay {
  return { date, costUsd: 0, tokens: 0, runs: 0, succeeded: 0, failed: 0, nothingToReport: 0, needsAttention: 0 };
}

function add(day: SpendDay, run: RunSpend): void {
  day.costUsd += run.costUsd ?? 0;
  day.tokens += run.tokens ?? 0;
  day.runs += 1;
  if (run.status === 'succeeded') day.succeeded += 1;
  if (failed.has(run.status)) day.failed += 1;
  if (run.outcome === 'nothing_to_report') day.nothingToReport += 1;
  if (run.outcome === 'needs_attention') day.needsAttention += 1;
}

const average = (values: number[]): number | null => (values.length === 0 ? null : values.reduce((sum, value) => sum + value, 0) / values.length);

function schedulesAhead(schedule: Schedule, now: Date): number {
  const window = days * dayMs;
  const fires = schedule.between(now, new Date(now.getTime() + window), maxCounted);
  if (fires.length < maxCounted) return fires.length;
  const covered = fires.at(-1)!.getTime() - now.getTime();
  return Math.round((fires.length * window) / covered);
}

/** How many times it fires in the next 30 days: its schedule's, or for a chained one its predecessor's. */
function firesAhead(store: Store, automation: AutomationRecord, now: Date): number {
  let current: AutomationRecord | undefined = automation;
  for (let link = 0; current && link < maxChain; link++) {
    if (!current.enabled) return 0;
    const schedule = scheduleOf(current);
    if (schedule !== null) return schedulesAhead(schedule, now);
    const after = followedId(current);
    current = after === undefined ? undefined : store.automations.get(after);
  }
  return 0;
}

export function automationSpend(store: Store, automationId: string, now: Date): Spend {
  return store.read(() => {
    const automation = store.automations.get(automationId);
    if (!automation) throw new AppError('not_found', `No automation ${automationId}.`);
    const { timezone } = automation;
    // Today and the 29 days before it, in its timezone: a day may be 23 or 25 hours long.
    const periods = [dayOf(now, timezone)];
    while (periods.length < days) periods.push(dayOf(new Date(periods.at(-1)!.start.getTime() - 1), timezone));
    const byDate = new Map(periods.map((period) => [period.key, emptyDay(period.key)]));
    const runs = store.spend.runsOfSource(automation.id, periods.at(-1)!.start.toISOString());
    for (const run of runs) {
      const day = byDate.get(dayOf(new Date(run.createdAt), timezone).key);
      if (day) add(day, run);
    }
    const averageCostUsd = average(runs.flatMap((run) => (run.costUsd === null ? [] : [run.costUsd])));
    const averageTokens = average(runs.flatMap((run) => (run.tokens === null ? [] : [run.tokens])));
    const firesNext30Days = firesAhead(store, automation, now);
    const instance = store.instances.get(automation.instanceId);
    return {
      averageCostUsd,
      averageTokens,
      forecast30DaysUsd: averageCostUsd === null ? null : averageCostUsd * firesNext30Days,
      firesNext30Days,
      reportsCost: instance ? reportsCost(instance.agent) : false,
      days: [...byDate.values()].reverse(),
    };
  });
}
