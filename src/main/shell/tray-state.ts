// What the tray shows, read from the core: this Steward's runs and the remotes' it follows (a
// remote run counts like a local one), the next fire, the storage condition.
import type { Run } from '../../shared/contract';
import type { Core } from '../core';
import { type TrayRun, type TrayState, attentionCount } from './tray-menu';

/** The tray counts the runs of the last day that need attention among the newest this many. */
const attentionScanned = 200;

function titleOf(core: Core, run: Run): string {
  const source = run.sourceId ? (core.store.automations.get(run.sourceId) ?? core.store.webhooks.get(run.sourceId)) : undefined;
  return source?.name ?? core.services.directory.get(run.instanceId)?.name ?? 'A prompt';
}

export function trayState(core: Core): TrayState {
  const scheduler = core.services.scheduler.state();
  const at = scheduler.nextFireAt;
  const due = at === null ? undefined : core.services.automations.list().find((automation) => automation.nextRuns[0] === at);
  const remote = core.services.remotes.recentRuns();
  const runs = [...core.store.runs.list({ limit: attentionScanned }), ...remote].sort((a, b) => (a.id < b.id ? 1 : -1)).slice(0, attentionScanned);
  const recent: TrayRun[] = runs.slice(0, 5).map((run) => ({ id: run.id, title: titleOf(core, run), status: run.status, finishedAt: run.finishedAt, outcome: run.outcome }));
  const remoteCount = (status: Run['status']) => remote.filter((run) => run.status === status).length;
  return {
    running: core.store.runs.count('running', 100) + remoteCount('running'),
    queued: core.store.runs.count('queued', 1000) + remoteCount('queued'),
    paused: scheduler.paused,
    nextFire: at === null ? null : { at, name: due?.name ?? 'an automation' },
    recent,
    attention: attentionCount(runs, core.clock.now()),
    storageProblem: core.services.storage.current()?.message,
  };
}
