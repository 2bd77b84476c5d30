// An automation's History on its card: its newest runs (when, how they started, how they ended, what
// the agent reported, what they cost), each linked to its page, and its whole thread as a transcript.
// For an event trigger, each run says the event that started it, and the events that started no run
// (filtered out, over budget, left by the catch-up policy) are listed with why.
import { useEffect } from 'react';
import { type Automation, eventKindOf } from '../../../../shared/contract';
import { OutcomeBadge } from '../runs/OutcomeBadge';
import { formatTokens, formatUsd } from '../reliability/drafts';
import { Badge, ErrorLine, Time, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { runOrigin } from './run-origin';

export function AutomationHistory({ automation }: { automation: Automation }) {
  const { sourceRuns, loadSourceRuns, fires, loadFires } = useApp();
  const action = useAction();
  const { run } = action;
  const events = eventKindOf(automation.trigger) !== undefined;
  const lastEventAt = automation.source?.lastEventAt;
  useEffect(() => {
    void run(() => Promise.all([loadSourceRuns(automation.id), events ? loadFires(automation.id) : undefined]));
    // Again when a run of it starts or ends, or its source saw an event.
  }, [automation.id, automation.lastRunAt, automation.lastRunStatus, lastEventAt, events, loadSourceRuns, loadFires]);
  const runs = sourceRuns[automation.id];
  const eventOf = new Map((fires[automation.id] ?? []).filter((fire) => fire.runId && fire.event).map((fire) => [fire.runId!, fire.event!]));
  const notRun = events ? (fires[automation.id] ?? []).filter((fire) => fire.runId === null && fire.event !== null).slice(0, 20) : [];
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
              <span className="hint" data-testid="run-origin"> {eventOf.has(each.id) ? <>on <span data-testid="run-event">{eventOf.get(each.id)}</span></> : runOrigin(each, automation)}</span>
              {each.costUsd != null ? <span className="hint"> · {formatUsd(each.costUsd)}</span> : each.inputTokens != null && <span className="hint"> · {formatTokens(each.inputTokens + (each.outputTokens ?? 0))}</span>}
              {each.summary && <div className="hint">{each.summary}</div>}
            </li>
          ))}
        </ul>
      )}
      {notRun.length > 0 && (
        <>
          <div className="hint" style={{ fontWeight: 600 }}>Events that started no run</div>
          <ul className="history-runs" aria-label="Events that started no run">
            {notRun.map((fire, index) => (
              <li key={`${fire.dueAt}-${index}`}>
                <Time iso={fire.dueAt} /> <Badge status={fire.state} /> {fire.event}
                {fire.detail && <div className="hint">{fire.detail}</div>}
              </li>
            ))}
          </ul>
        </>
      )}
      <a href={`#/threads/${automation.threadId}`}>Its whole conversation</a>
    </div>
  );
}
