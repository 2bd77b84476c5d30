// One run: what the agent said came of it, its header (status, where it came from, linked;
// instance; why it failed and its retries; queued, started, finished, duration; tokens and cost when
// the agent reported them; the agent session it used or resumed), why it waits while queued (a
// retry: until when), re-run and cancel, and exactly its own messages, growing live (a
// virtualized transcript with search, so a run of 10,000 lines stays light; a host its sandbox
// refused is one click from allowed); what it waits for a person to decide, with Allow and Deny.
import { useEffect, useState } from 'react';
import type { Run } from '../../../../shared/contract';
import { Badge, Empty, ErrorLine, formatTime, useAction } from '../../ui/widgets';
import { RunNotifications } from './RunNotifications';
import { Transcript } from './Transcript';
import { useApp } from '../../lib/app-context';
import { type Usage, formatUsage, usageOf } from './usage';
import { RetryFacts, RetryWait, RunOutcome } from './RunReliability';
import { RunRequests } from '../approvals/ApprovalRequest';
import { formatDuration } from '../../../../shared/format';
import { instanceLabel } from '../instances/instance-label';

/** Where a run came from, in words, and where to see that source. */
function useSource(run: Run): { label: string; name: string; href: string | undefined } {
  const { automations, webhooks } = useApp();
  if (run.source === 'automation') {
    const automation = automations.find((each) => each.id === run.sourceId);
    return { label: run.scheduledFor ? `automation, due ${formatTime(run.scheduledFor)}` : 'automation, run by hand', name: automation?.name ?? 'a deleted automation', href: automation && '#/automations' };
  }
  if (run.source === 'webhook') {
    const webhook = webhooks.find((each) => each.id === run.sourceId);
    return { label: 'webhook', name: webhook?.name ?? 'a deleted webhook', href: webhook && '#/webhooks' };
  }
  // Either way the prompt lands in a chat thread of the instance: that is where to see it.
  const chat = `#/chat/${run.instanceId}/${run.threadId}`;
  if (run.source === 'api') return { label: run.parentRunId ? "a prompt from another run's agent" : 'a prompt sent through the API', name: 'API', href: chat };
  return { label: 'a prompt in the chat', name: 'chat', href: chat };
}

/** The usage recorded on the run itself; undefined when none was (older runs: read from its last line). */
function reportedUsage(run: Run): Usage | undefined {
  if (run.costUsd == null && run.inputTokens == null && run.outputTokens == null) return undefined;
  return { ...(run.costUsd != null && { costUsd: run.costUsd }), ...(run.inputTokens != null && { inputTokens: run.inputTokens }), ...(run.outputTokens != null && { outputTokens: run.outputTokens }) };
}

function Facts({ run }: { run: Run }) {
  const { instances, runMessages } = useApp();
  const source = useSource(run);
  const instance = instances.find((each) => each.id === run.instanceId);
  const usage = reportedUsage(run) ?? usageOf(runMessages[run.id] ?? []);
  const figures = usage && formatUsage(usage);
  const duration = run.startedAt && run.finishedAt ? formatDuration(Date.parse(run.finishedAt) - Date.parse(run.startedAt)) : undefined;
  return (
    <dl className="facts" aria-label="About this run">
      <dt>Source</dt>
      <dd>{source.href ? <a href={source.href}>{source.name}</a> : source.name} <span className="hint">({source.label})</span></dd>
      <dt>Instance</dt>
      <dd>{instance ? <a href={`#/chat/${instance.id}`}>{instanceLabel(instance)}</a> : run.instanceId}</dd>
      {run.parentRunId && (
        <>
          <dt>Started by</dt>
          <dd>
            <a href={`#/runs/${run.parentRunId}`}>the agent of another run</a> <span className="hint">({run.depth ?? 1} deep in a chain of runs)</span>
          </dd>
        </>
      )}
      <RetryFacts run={run} />
      <dt>Queued</dt>
      <dd>{formatTime(run.createdAt)}</dd>
      <dt>Started</dt>
      <dd>{formatTime(run.startedAt)}</dd>
      <dt>Finished</dt>
      <dd>{formatTime(run.finishedAt)}</dd>
      <dt>Duration</dt>
      <dd>{duration ?? '—'}</dd>
      {figures?.tokens && (<><dt>Tokens</dt><dd>{figures.tokens}</dd></>)}
      {figures?.cost && (<><dt>Cost</dt><dd>{figures.cost}</dd></>)}
      {(run.sessionId || run.resumedSessionId) && (
        <>
          <dt>Session</dt>
          <dd className="mono">
            {run.sessionId ?? run.resumedSessionId}
            {run.resumedSessionId && <span className="hint"> (continued {run.resumedSessionId === run.sessionId ? 'this session' : run.resumedSessionId})</span>}
          </dd>
        </>
      )}
    </dl>
  );
}

/** While queued: why it waits, asked again whenever its instance or the runs change. */
function Waiting({ run }: { run: Run }) {
  const { runQueues, instances, runs, loadRun } = useApp();
  const instanceStatus = instances.find((each) => each.id === run.instanceId)?.status;
  const runningCount = runs.filter((each) => each.status === 'running').length;
  useEffect(() => {
    void loadRun(run.id).catch(() => undefined);
  }, [run.id, instanceStatus, runningCount, loadRun]);
  const queue = runQueues[run.id];
  if (!queue) return null;
  return (
    <div className="card notice" role="status">
      Waiting{queue.position > 1 ? ` (number ${queue.position} in its instance’s queue)` : ''}: {queue.message}{' '}
      {queue.blockingRunId && <a href={`#/runs/${queue.blockingRunId}`}>See the run it waits for</a>}
      {queue.reason === 'instance_stopped' && <> <a href="#/instances">Start it on Instances</a></>}
    </div>
  );
}

export function RunView({ id }: { id: string }) {
  const { runs, runMessages, loadRun, loadRunMessages, cancelRun, rerun, navigate } = useApp();
  const [missing, setMissing] = useState(false);
  const action = useAction();
  const run = runs.find((each) => each.id === id);
  useEffect(() => {
    setMissing(false);
    loadRun(id).catch(() => setMissing(true));
    loadRunMessages(id).catch(() => undefined);
  }, [id, loadRun, loadRunMessages]);
  if (missing) return <Empty title="No such run">It may have been deleted with its automation or webhook.</Empty>;
  if (!run) return <div className="hint">Loading…</div>;
  const messages = runMessages[id];
  const active = ['queued', 'waiting', 'running'].includes(run.status);
  // Queued, or waiting for a person to allow it to start: its prompt is what it will be asked.
  const notStarted = run.status === 'queued' || (run.status === 'waiting' && !run.startedAt);
  return (
    <section aria-labelledby="run-title">
      <div className="bar">
        <h2 id="run-title">Run</h2>
        <Badge status={run.status} />
        <span className="spacer" />
        <button onClick={() => void action.run(async () => navigate(`/runs/${(await rerun(run)).id}`))} disabled={action.busy}>Re-run</button>
        {active && <button className="danger" onClick={() => void action.run(() => cancelRun(run.id))}>Cancel</button>}
      </div>
      <RunOutcome run={run} />
      <Facts run={run} />
      {!active && <RunNotifications run={run} />}
      <ErrorLine message={action.error?.message} />
      <RetryWait run={run} />
      {run.status === 'queued' && <Waiting run={run} />}
      {run.error && <div className="card error">{run.error}</div>}
      {!messages ? (
        <div className="hint">Loading…</div>
      ) : messages.length === 0 ? (
        <div className="hint">{notStarted ? 'Nothing said yet: the run has not started.' : 'This run left no messages.'}</div>
      ) : (
        <Transcript messages={messages} instanceId={run.instanceId} />
      )}
      <RunRequests runIds={[run.id]} />
      {notStarted && (
        <details open>
          <summary>Prompt</summary>
          <pre>{run.prompt}</pre>
        </details>
      )}
      {run.stderr && (
        <details>
          <summary>stderr</summary>
          <pre>{run.stderr}</pre>
        </details>
      )}
    </section>
  );
}
