// The automation-unhealthy notice: raised once when an automation starts failing (the
// unhealthy-after setting's failed runs in a row) or missing fires, and once when it recovers.
import type { Store } from '../store';
import { automationHealth } from './automation-health';
import { postNotice } from './notices';

export function checkAlarm(store: Store, automationId: string, at: Date): void {
  const automation = store.automations.get(automationId);
  // A source that stopped listening holds its own alarm until it listens again (source-manager.ts).
  if (!automation || automation.alarm === 'deaf') return;
  const { health } = automationHealth({ store, now: () => at }, automation.id, null);
  const state = health.state === 'healthy' ? null : health.state;
  if (state === automation.alarm || (state !== null && automation.alarm !== null)) return;
  store.automations.setAlarm(automation.id, state);
  const name = `"${automation.name}"`;
  if (state === null) {
    postNotice(store, { kind: 'automation-recovered', title: `${automation.name} recovered`, body: automation.alarm === 'failing' ? `${name} ran successfully again.` : `${name} fires on time again.`, instanceId: automation.instanceId, automationId: automation.id }, at);
  } else {
    const body =
      state === 'failing'
        ? `${name} failed ${health.consecutiveFailures} times in a row${health.lastRunStatus ? ` (last run ${health.lastRunStatus.replace('_', ' ')})` : ''}.`
        : `${name} missed a fire: Steward was not running or the machine was asleep when it was due.`;
    postNotice(store, { kind: 'automation-unhealthy', title: state === 'failing' ? `${automation.name} is failing` : `${automation.name} missed fires`, body, instanceId: automation.instanceId, automationId: automation.id }, at);
  }
}
