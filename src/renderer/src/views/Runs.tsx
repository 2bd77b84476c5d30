// Runs: the recent runs, and one run (or one thread) as a transcript that grows while it runs.
import { useEffect, useState } from 'react';
import { Badge, Empty, ErrorLine, formatTime, useAction } from '../components/ui';
import { useApp } from '../lib/app-context';

export function RunList() {
  const { runs, instances } = useApp();
  const nameOf = (id: string) => instances.find((each) => each.id === id)?.name ?? id;
  if (runs.length === 0) {
    return (
      <section aria-labelledby="runs-title">
        <h2 id="runs-title">Runs</h2>
        <Empty title="No runs yet">Runs appear here when an automation fires, a webhook is called, or you press “Run now”.</Empty>
      </section>
    );
  }
  return (
    <section aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      <table>
        <thead><tr><th>Started</th><th>Status</th><th>Source</th><th>Instance</th><th>Prompt</th></tr></thead>
        <tbody>
          {runs.map((run) => (
            <tr key={run.id}>
              <td><a href={`#/runs/${run.id}`}>{formatTime(run.startedAt ?? run.createdAt)}</a></td>
              <td><Badge status={run.status} /></td>
              <td><span className={`tag ${run.source === 'automation' ? 'cron' : run.source === 'webhook' ? 'hook' : ''}`}>{run.source}</span></td>
              <td>{nameOf(run.instanceId)}</td>
              <td className="hint">{run.prompt.slice(0, 90)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function Transcript({ threadId }: { threadId: string }) {
  const { threads, loadThread } = useApp();
  useEffect(() => {
    void loadThread(threadId);
  }, [threadId, loadThread]);
  const messages = threads[threadId];
  if (!messages) return <div className="hint">Loading…</div>;
  if (messages.length === 0) return <div className="hint">Nothing said yet: the run is waiting for its turn.</div>;
  return (
    <div aria-label="Transcript" aria-live="polite">
      {messages.map((message) => (
        <div key={message.seq} className={`message ${message.role}`}>
          <span className="role">{message.role} · {new Date(message.createdAt).toLocaleTimeString()}</span>
          {message.content}
        </div>
      ))}
    </div>
  );
}

export function RunView({ id }: { id: string }) {
  const { runs, loadRun, cancelRun } = useApp();
  const [missing, setMissing] = useState(false);
  const action = useAction();
  const run = runs.find((each) => each.id === id);
  useEffect(() => {
    loadRun(id).catch(() => setMissing(true));
  }, [id, loadRun]);
  if (missing) return <Empty title="No such run">It may have been deleted with its automation or webhook.</Empty>;
  if (!run) return <div className="hint">Loading…</div>;
  return (
    <section aria-labelledby="run-title">
      <div className="bar">
        <h2 id="run-title">Run</h2>
        <Badge status={run.status} />
        <span className="hint">
          {run.source} · queued {formatTime(run.createdAt)} · finished {formatTime(run.finishedAt)}
          {run.sessionId && ` · session ${run.sessionId}${run.resumedSessionId ? ' (continued)' : ''}`}
        </span>
        <span className="spacer" />
        {['queued', 'running'].includes(run.status) && <button className="danger" onClick={() => void action.run(() => cancelRun(run.id))}>Cancel</button>}
      </div>
      <ErrorLine message={action.error?.message} />
      {run.error && <div className="card error">{run.error}</div>}
      <Transcript threadId={run.threadId} />
      {run.stderr && (
        <details>
          <summary>stderr</summary>
          <pre>{run.stderr}</pre>
        </details>
      )}
    </section>
  );
}

export function ThreadView({ id }: { id: string }) {
  return (
    <section aria-labelledby="thread-title">
      <h2 id="thread-title">History</h2>
      <Transcript threadId={id} />
    </section>
  );
}
