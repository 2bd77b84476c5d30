// A system line about a run in the activity feed (its outcome, why a chain stopped), tagged as
// the run's own lines are.
import type { ActivityKind, Run } from '../../../shared/contract';
import { oneLine } from '../../../shared/format';
import { labelOf } from './run-label';
import type { Store } from '../store';

export function appendRunLine(store: Store, run: Run, kind: ActivityKind, text: string, raw: Record<string, unknown>, at: Date): void {
  store.activity.append({ instanceId: run.instanceId, runId: run.id, kind, label: labelOf(run), displayText: oneLine(text), raw: JSON.stringify(raw), timestamp: at.toISOString() });
}
