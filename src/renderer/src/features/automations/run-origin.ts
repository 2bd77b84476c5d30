// How one run of an automation started, as its History says it: by its schedule, by an event (a
// file, a push, a message, a feed item), by hand (Run now), after another automation's run, or as a
// retry.
import { type Automation, type Run, eventKindOf } from '../../../../shared/contract';

export type RunOrigin = 'scheduled' | 'on an event' | 'by hand' | 'after another automation' | 'retry';

export function runOrigin(run: Pick<Run, 'scheduledFor' | 'retryOf' | 'parentRunId'>, automation: Pick<Automation, 'trigger' | 'createdByRunId'>): RunOrigin {
  if (run.retryOf) return 'retry';
  if (run.scheduledFor) return eventKindOf(automation.trigger) ? 'on an event' : 'scheduled';
  // A chained run's parent is the run it follows; Run now's parent is the run that made the automation, if any.
  if (automation.trigger && run.parentRunId && run.parentRunId !== automation.createdByRunId) return 'after another automation';
  return 'by hand';
}
