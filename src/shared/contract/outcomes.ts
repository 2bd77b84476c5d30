// Outcomes: what an agent says came of its run (Steward's report_outcome tool), so that runs with
// nothing to report stay quiet and the ones that need a person are seen.
import { z } from 'zod';
import { NoInput, NoQuery, defineOperation } from './common';
import { Outcome, Run } from './runs';

export const OutcomeReport = z.strictObject({
  status: Outcome,
  summary: z.string().trim().min(1, 'must not be empty').max(500, 'must be at most 500 characters').describe('One or two sentences a person reads in the feed and the notification'),
});
export type OutcomeReport = z.infer<typeof OutcomeReport>;

export const outcomeOperations = {
  'runs.reportOutcome': defineOperation({
    name: 'runs.reportOutcome', method: 'POST', path: '/api/runs/outcome',
    summary: "Report what came of the calling run (a run's own key only); the last report wins",
    auth: true, runKey: 'self', scope: 'runs', status: 200, params: NoInput, query: NoQuery, body: OutcomeReport, output: z.object({ run: Run }),
  }),
};
