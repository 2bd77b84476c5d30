// How far a run has got, for whoever keeps copies of runs that arrive out of order (the app's run
// list, a remote Steward's runs followed here): a copy never replaces one further on. Not started
// (queued, or waiting for a person before it starts), started (running, or waiting for a person in
// the middle of it), ended. Within a stage the latest copy wins, since waiting goes back to queued
// or to running.
import type { Run } from './contract';

const ongoing: readonly Run['status'][] = ['queued', 'waiting', 'running'];

export function runProgress(run: Pick<Run, 'status' | 'startedAt'>): 0 | 1 | 2 {
  if (!ongoing.includes(run.status)) return 2;
  return run.startedAt ? 1 : 0;
}
