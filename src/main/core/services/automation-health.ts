// An automation's health, from its fires and its runs: failing after the unhealthy-after setting's
// failed runs in a row, missing while a missed fire is newer than its last on-time one. Worked out
// for any number of automations at once from one statement over their runs and one over their
// fires (the list of 10,000 costs two statements, not five per automation); one automation's
// health is the same function asked about one.
import type { AutomationHealth, RunStatus } from '../../../shared/contract';
import { readSettings } from '../settings';
import type { ServiceContext } from './context';

const dayMs = 24 * 60 * 60 * 1000;
/** Failures in a row are counted no further than this. */
const maxCounted = 100;

/** An automation's health, and its newest run (which its read model shows too). */
export interface HealthOf {
  health: AutomationHealth;
  lastRun: { id: string; createdAt: string; status: RunStatus } | undefined;
}

/** Each of these automations' health; `nextFireAt` gives the next fire time of each (the health shows it). */
export function automationsHealth(context: Pick<ServiceContext, 'store' | 'now'>, automationIds: readonly string[], nextFireAt: (id: string) => string | null): Map<string, HealthOf> {
  const { store } = context;
  const unhealthyAfter = readSettings(store).notifications.unhealthyAfter;
  const runs = store.runs.latestEach(automationIds, maxCounted);
  const fires = store.fires.figures(automationIds, new Date(context.now().getTime() - 30 * dayMs).toISOString());
  const found = new Map<string, HealthOf>();
  for (const id of automationIds) {
    const latest = runs.get(id)?.latest;
    const consecutiveFailures = runs.get(id)?.failuresInARow ?? 0;
    const fired = fires.get(id);
    const state = consecutiveFailures >= unhealthyAfter ? 'failing' : fired?.missing ? 'missing' : 'healthy';
    found.set(id, {
      lastRun: latest,
      health: {
        state,
        lastFireAt: fired?.lastDueAt ?? null,
        lastRunId: latest?.id ?? null,
        lastRunStatus: latest?.status ?? null,
        consecutiveFailures,
        missedLast30Days: fired?.missedSince ?? 0,
        nextFireAt: nextFireAt(id),
      },
    });
  }
  return found;
}

/** One automation's health: the list's, asked about one. */
export function automationHealth(context: Pick<ServiceContext, 'store' | 'now'>, automationId: string, nextFireAt: string | null): HealthOf {
  return automationsHealth(context, [automationId], () => nextFireAt).get(automationId)!;
}
