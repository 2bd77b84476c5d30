// An automation's schedule, whatever says when it fires: a cron expression, a time once (`at`), or
// an interval (`every`). null for one started by another automation or by an event source.
import { type Schedule, compileSchedule } from '../../../shared/cron';
import { everySchedule, instantOf, onceSchedule } from '../../../shared/once-every';
import type { AutomationRecord } from '../store/repositories/automations';

export function scheduleOf(automation: Pick<AutomationRecord, 'cronExpression' | 'trigger' | 'timezone' | 'createdAt'>): Schedule | null {
  const { cronExpression, trigger, timezone } = automation;
  if (cronExpression !== null) return compileSchedule(cronExpression, timezone);
  if (trigger?.at !== undefined) return onceSchedule(trigger.at, timezone);
  if (trigger?.every !== undefined) return everySchedule(trigger.every, trigger.every.from === undefined ? Date.parse(automation.createdAt) : instantOf(trigger.every.from, timezone), timezone);
  return null;
}

/** The automation another one runs after, if it is chained. */
export const followedId = (automation: Pick<AutomationRecord, 'trigger'>): string | undefined => automation.trigger?.after?.automationId;
