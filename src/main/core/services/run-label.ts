// The label of a run's activity lines: where the run came from.
import type { ActivityLabel, Run, RunSource } from '../../../shared/contract';

const labels: Record<RunSource, ActivityLabel> = { automation: 'cron', webhook: 'hook', chat: 'chat', api: 'api' };

/** An automation's run started by hand (run now, re-run) has no due time: `api`, not `cron`. */
export const labelOf = (run: Run): ActivityLabel => (run.source === 'automation' && run.scheduledFor === null ? 'api' : labels[run.source]);
