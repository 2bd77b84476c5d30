// Budgets of instances and automations: whether a run may start (the day's and the month's spend
// against usdPerDay, tokensPerDay and usdPerMonth; an automation's periods in its timezone, an
// instance's in UTC), what is recorded when one does not (a feed line, and once per owner and
// period a notice), and the per-run limit a running run is held to.
import type { ActivityLabel, Budget, Run } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Store } from '../store';
import type { AutomationRecord } from '../store/repositories/automations';
import type { SpendTotal } from '../store/repositories/spend';
import { type Period, dayOf, monthOf, zonedTime } from './budget-periods';

export interface BudgetBlock {
  owner: 'instance' | 'automation';
  ownerId: string;
  ownerName: string;
  limit: 'usdPerDay' | 'usdPerMonth' | 'tokensPerDay';
  spent: number;
  allowed: number;
  /** When the period ends, in the owner's timezone: '2026-11-26T00:00:00+01:00'. */
  resetsAt: string;
  message: string;
  /** The period's key ('2026-11-25', '2026-11'): one notice per owner and period. */
  period: string;
}

interface Owner {
  owner: BudgetBlock['owner'];
  id: string;
  name: string;
  budget: Budget;
  timezone: string;
  spent: (period: Period) => SpendTotal;
}

export const usd = (amount: number): string => `$${amount > 0 && amount < 0.01 ? amount.toFixed(4) : amount.toFixed(2)}`;
const tokens = (count: number): string => `${count.toLocaleString('en-US')} tokens`;

const limits = [
  { limit: 'usdPerDay', period: dayOf, spent: (total: SpendTotal) => total.costUsd, amount: usd, per: 'a day' },
  { limit: 'tokensPerDay', period: dayOf, spent: (total: SpendTotal) => total.tokens, amount: tokens, per: 'a day' },
  { limit: 'usdPerMonth', period: monthOf, spent: (total: SpendTotal) => total.costUsd, amount: usd, per: 'a month' },
] as const;

function ownersOf(store: Store, scope: { instanceId: string; automation?: AutomationRecord | undefined }): Owner[] {
  const owners: Owner[] = [];
  const { automation } = scope;
  if (automation) {
    owners.push({ owner: 'automation', id: automation.id, name: automation.name, budget: automation.budget, timezone: automation.timezone, spent: (period) => store.spend.ofSource(automation.id, period.start.toISOString(), period.end.toISOString()) });
  }
  const instance = store.instances.budgetOf(scope.instanceId);
  if (instance) {
    owners.push({ owner: 'instance', id: instance.id, name: instance.name, budget: instance.budget, timezone: 'UTC', spent: (period) => store.spend.ofInstance(instance.id, period.start.toISOString(), period.end.toISOString()) });
  }
  return owners;
}

/**
 * Why a run of this instance (and automation) may not start now: the first budget, the
 * automation's before its instance's, whose period's spend is at or over its limit; null when none is.
 */
export function budgetBlock(store: Store, scope: { instanceId: string; automation?: AutomationRecord | undefined }, now: Date): BudgetBlock | null {
  for (const owner of ownersOf(store, scope)) {
    for (const { limit, period: periodOf, spent: spentOf, amount, per } of limits) {
      const allowed = owner.budget[limit];
      if (allowed === undefined) continue;
      const period = periodOf(now, owner.timezone);
      const spent = spentOf(owner.spent(period));
      if (spent < allowed) continue;
      const resetsAt = zonedTime(period.end, owner.timezone);
      const message = `Over budget: ${owner.owner} "${owner.name}" spent ${amount(spent)} of its ${amount(allowed)} ${per}; it resets at ${resetsAt}`;
      return { owner: owner.owner, ownerId: owner.id, ownerName: owner.name, limit, spent, allowed, resetsAt, message, period: period.key };
    }
  }
  return null;
}

/** For a run asked for by hand: 409 over_budget, naming the budget and when it resets. */
export function assertWithinBudget(store: Store, scope: { instanceId: string; automation?: AutomationRecord | undefined }, now: Date): void {
  const block = budgetBlock(store, scope, now);
  if (block) throw new AppError('over_budget', `${block.message}.`);
}

/**
 * A run that did not start for its budget: a feed line saying so, and the first time in the
 * owner's period a notice (an activity line whose raw is a `notice`, which becomes a notification).
 */
export function recordBudgetSkip(store: Store, block: BudgetBlock, instanceId: string, at: Date, about: { automationId?: string; runId?: string; label?: ActivityLabel } = {}): void {
  const timestamp = at.toISOString();
  const automationId = about.automationId ?? (block.owner === 'automation' ? block.ownerId : undefined);
  const line = (displayText: string, raw: Record<string, unknown>) =>
    store.activity.append({ instanceId, runId: about.runId ?? null, kind: 'system', label: about.label ?? 'cron', displayText, raw: JSON.stringify(raw), timestamp });
  const { message: _message, period: _period, ...figures } = block;
  line(`Run not started. ${block.message}.`, { type: 'budget', event: 'run_skipped', ...figures, ...(automationId ? { automationId } : {}) });
  if (!store.spend.noticeOnce(block.ownerId, block.period, timestamp)) return;
  const title = `${block.owner === 'automation' ? 'Automation' : 'Instance'} "${block.ownerName}" is over budget`;
  const body = `${block.message}. Its runs do not start until then.`;
  line(`${title}: ${body}`, { type: 'notice', kind: 'over-budget', title, body, ...(automationId ? { automationId } : {}), instanceId });
}

/** The smaller usdPerRun that applies to a run (its instance's, its automation's), and whose it is. */
export function perRunLimit(store: Store, run: Run): { usd: number; of: string } | null {
  const limits: { usd: number; of: string }[] = [];
  const instance = store.instances.get(run.instanceId);
  if (instance?.budget.usdPerRun !== undefined) limits.push({ usd: instance.budget.usdPerRun, of: `instance "${instance.name}"` });
  const automation = run.source === 'automation' && run.sourceId !== null ? store.automations.get(run.sourceId) : undefined;
  if (automation?.budget.usdPerRun !== undefined) limits.push({ usd: automation.budget.usdPerRun, of: `automation "${automation.name}"` });
  return limits.sort((a, b) => a.usd - b.usd)[0] ?? null;
}

/** Why a run that spent `spent` is cancelled under `limit`. */
export const overRunLimit = (spent: number, limit: { usd: number; of: string }): string =>
  `Cancelled: it spent ${usd(spent)}, past the per-run budget of ${usd(limit.usd)} of ${limit.of}`;
