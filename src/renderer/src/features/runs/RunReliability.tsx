// What the run page says of a run's outcome and retries: the agent's outcome and summary (shown
// first), why it failed in words, the run it retries or the run that retried it, and for a queued
// retry when it may start.
import { useEffect } from 'react';
import type { Run } from '../../../../shared/contract';
import { errorClassWords } from '../reliability/drafts';
import { OutcomeBadge } from './OutcomeBadge';
import { Time, formatTime, statusText } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';

export function RunOutcome({ run }: { run: Run }) {
  if (!run.outcome && !run.summary) return null;
  return (
    <div className={`card outcome-card ${run.outcome ?? ''}`} role="group" aria-label="Outcome">
      {run.outcome && <OutcomeBadge outcome={run.outcome} />}
      {run.summary && <p className="summary">{run.summary}</p>}
    </div>
  );
}

/** The run that retried this one, among the runs known of its automation or webhook (loaded once it failed). */
function useRetriedAs(run: Run): Run | undefined {
  const { runs, sourceRuns, loadSourceRuns } = useApp();
  const failed = run.errorClass != null || ['failed', 'timed_out', 'interrupted'].includes(run.status);
  useEffect(() => {
    if (failed && run.sourceId) void loadSourceRuns(run.sourceId).catch(() => undefined);
  }, [failed, run.sourceId, loadSourceRuns]);
  return [...runs, ...(run.sourceId ? (sourceRuns[run.sourceId] ?? []) : [])].find((each) => each.retryOf === run.id);
}

/** Rows of the run's facts: why it failed, and its retry links. */
export function RetryFacts({ run }: { run: Run }) {
  const retriedAs = useRetriedAs(run);
  return (
    <>
      {run.errorClass && (<><dt>Failure</dt><dd>{errorClassWords[run.errorClass]}</dd></>)}
      {run.retryOf && (<><dt>Retry of</dt><dd><a className="mono" href={`#/runs/${run.retryOf}`}>{run.retryOf}</a></dd></>)}
      {retriedAs && (<><dt>Retried as</dt><dd><a className="mono" href={`#/runs/${retriedAs.id}`}>{retriedAs.id}</a> <span className="hint">({statusText(retriedAs.status)})</span></dd></>)}
    </>
  );
}

/** A queued retry waiting out its backoff (past that time, it waits like any queued run). */
export function RetryWait({ run }: { run: Run }) {
  if (run.status !== 'queued' || !run.startAfter || Date.parse(run.startAfter) <= Date.now()) return null;
  return (
    <div className="card notice" role="status">
      Waits to retry until <time dateTime={run.startAfter}>{formatTime(run.startAfter)}</time> (<Time iso={run.startAfter} />).
    </div>
  );
}
