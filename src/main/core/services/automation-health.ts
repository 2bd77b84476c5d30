// An automation's health, from its fires and its runs: failing after the unhealthy-after setting's
// failed runs in a row, missing while a missed fire is newer than its last on-time one.
import type { AutomationHealth } from '../../../shared/contract';
import { readSettings } from '../settings';
import type { AutomationRecord } from '../store/repositories/automations';
import type { ServiceContext } from './context';

const dayMs = 24 * 60 * 60 * 1000;
/** Failures in a row are counted no further than this. */
const maxCounted = 100;

export function automationHealth(context: Pick<ServiceContext, 'store' | 'now'>, automation: Pick<AutomationRecord, 'id'>, nextFireAt: string | null): AutomationHealth {
  const { store } = context;
  const last = store.runs.latestFor(automation.id);
  const consecutiveFailures = store.runs.failuresInARow(automation.id, maxCounted);
  const failing = consecutiveFailures >= readSettings(store).notifications.unhealthyAfter;
  return {
    state: failing ? 'failing' : store.fires.missing(automation.id) ? 'missing' : 'healthy',
    lastFireAt: store.fires.latest(automation.id)?.dueAt ?? null,
    lastRunId: last?.id ?? null,
    lastRunStatus: last?.status ?? null,
    consecutiveFailures,
    missedLast30Days: store.fires.missedSince(automation.id, new Date(context.now().getTime() - 30 * dayMs).toISOString()),
    nextFireAt,
  };
}
