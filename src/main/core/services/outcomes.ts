// report_outcome: an agent says what came of its run (nothing to report, done, needs attention),
// recorded on the run its key belongs to (the last report wins) with a line in the feed.
import type { OutcomeReport, Run } from '../../../shared/contract';
import { AppError } from '../../../shared/errors';
import type { Caller } from '../caller';
import type { ServiceContext } from './context';
import { appendRunLine } from './run-lines';

export const outcomeWords: Record<OutcomeReport['status'], string> = {
  nothing_to_report: 'nothing to report',
  done: 'done',
  needs_attention: 'needs attention',
};

export function createOutcomesService(context: ServiceContext) {
  const { store } = context;
  return {
    report(caller: Caller, report: OutcomeReport): Run {
      const { runId } = caller;
      if (runId === undefined) {
        throw new AppError('forbidden', "report_outcome is for an agent's run: call it with the key Steward gives the run (its Steward MCP server, or the built-in agent's steward tools), not a person's API key.");
      }
      return store.transaction(() => {
        const run = store.runs.get(runId);
        if (!run) throw new AppError('not_found', `No run ${runId}.`);
        store.runs.setOutcome(run.id, report.status, report.summary);
        const raw = { type: 'run.outcome', runId: run.id, outcome: report.status, summary: report.summary, source: run.source, sourceId: run.sourceId };
        appendRunLine(store, run, 'system', `Outcome: ${outcomeWords[report.status]} — ${report.summary}`, raw, context.now());
        return store.runs.get(run.id)!;
      });
    },
  };
}

export type OutcomesService = ReturnType<typeof createOutcomesService>;
