// What a run's end sets going, written in the same transaction as the end itself, so that none of
// it is lost or done twice: a retry of a failed run, the automations chained after it, and its
// automation's health alarm.
import type { Run } from '../../../shared/contract';
import { checkAlarm } from './automation-alarms';
import type { Store } from '../store';
import { chainAfter } from './chains';
import { retryAfter } from './retries';

export function afterRun(store: Store, run: Run, at: Date): void {
  retryAfter(store, run, at);
  // A failure that is retried is not yet the fire's outcome: its last attempt's is.
  if (run.source === 'automation' && run.sourceId !== null && !store.runs.retried(run.id)) checkAlarm(store, run.sourceId, at);
  // After retryAfter: a run that was retried starts no followers yet (chains.ts).
  chainAfter(store, run, at);
}
