// An automation's History on its card: its newest runs (when, how they started, how they ended, what
// the agent reported, what they cost), each linked to its page, and its whole thread as a transcript.
import { useEffect } from 'react';
import type { Automation } from '../../../../shared/contract';
import { OutcomeBadge } from '../runs/OutcomeBadge';
import { formatTokens, formatUsd } from '../reliability/drafts';
import { Badge, ErrorLine, Time, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { runOrigin } from './run-origin';

export function AutomationHistory({ automation }: { automation: Automation }) {
  const { sourceRuns, loadSourceRuns } = useApp();
  const action = useAction();
  const { run } = action;
  useEffect(() => {
    void run(() => loadSourceRuns(automation.id));
    // Again when a run of it starts or ends.
  }, [automation.id, automation.lastRunAt, automation.lastRunStatus, loadSourceRuns]);
  const runs = sourceRuns[automation.id];
  return (
    <div className="history" role="region" aria-label={`History of ${automation.name}`}>
      <ErrorLine message={action.error?.message} />
      {!runs ? (
        <div className="hint">Loading…</div>
      ) : runs.length === 0 ? (
        <div className="hint">No runs yet.</div>
      ) : (
        <ul className="history-runs">
          {runs.map((each) => (
            <li key={each.id}>
              <a href={`#/runs/${each.id}`}><Time iso={each.startedAt ?? each.createdAt} /></a> <Badge status={each.status} />
              {each.outcome && <> <OutcomeBadge outcome={each.outcome} /></>}
              <span className="hint" data-testid="run-origin"> {runOrigin(each, automation)}</span>
              {each.costUsd != null ? <span className="hint"> · {formatUsd(each.costUsd)}</span> : each.inputTokens != null && <span className="hint"> · {formatTokens(each.inputTokens + (each.outputTokens ?? 0))}</span>}
              {each.summary && <div className="hint">{each.summary}</div>}
            </li>
          ))}
        </ul>
      )}
      <a href={`#/threads/${automation.threadId}`}>Its whole conversation</a>
    </div>
  );
}
