// Runs: the recent runs with what their agents reported of them (filtered by status, source and
// instance, paged with “Load more”; the quiet ones of an automation and day folded into one row),
// and one thread (an automation's or a webhook's history) as a transcript
// that grows while it runs. One run's page is Run.tsx.
import { useEffect } from 'react';
import type { Run } from '../../../../shared/contract';
import { RunFilters } from './RunFilters';
import { Turns } from './Turns';
import { OutcomeBadge } from './OutcomeBadge';
import { Badge, Empty, ErrorLine, Time, useAction } from '../../ui/widgets';
import { useApp } from '../../lib/app-context';
import { visibleRuns } from './run-list-slice';
import { foldQuiet, quietRun } from '../../lib/quiet-folds';
import { QuietFold } from '../../ui/QuietFold';
import { instanceLabel } from '../instances/instance-label';
import { ScrollBox } from '../../ui/ScrollBox';
import { cancelledWhy } from '../../../../shared/run-cancel-words';
import { CancelledWhy } from './CancelledWhy';

/** The tag of a run's source, as the activity labels it: a scheduled fire `cron`, run now `api`. */
export function sourceTag(run: Run): string {
  if (run.source === 'automation') return run.scheduledFor ? 'cron' : 'api';
  return run.source === 'webhook' ? 'hook' : run.source;
}

/** When it started or, for one that has not, since when it waits: the run page's truth. */
function StartedWords({ run }: { run: Run }) {
  if (run.startedAt) return <Time iso={run.startedAt} />;
  if (run.status === 'waiting') return <>waiting since <Time iso={run.createdAt} /></>;
  if (run.status === 'queued') return <>queued <Time iso={run.createdAt} /></>;
  return <>not started · <Time iso={run.finishedAt ?? run.createdAt} /></>;
}

function RunRow({ run, instanceName }: { run: Run; instanceName: string }) {
  return (
    <tr>
      <td><a href={`#/runs/${run.id}`}><StartedWords run={run} /></a></td>
      <td><Badge status={run.status} /><CancelledWhy why={cancelledWhy(run.status, run.error)} />{run.outcome && <> <OutcomeBadge outcome={run.outcome} /></>}</td>
      <td><span className={`tag ${sourceTag(run)}`}>{sourceTag(run)}</span>{sourceTag(run) !== run.source && ` ${run.source}`}</td>
      <td><span className="cut" title={instanceName}>{instanceName}</span></td>
      <td className="hint prompt">{run.summary ? <strong className="summary">{run.summary}</strong> : run.prompt.slice(0, 90)}</td>
    </tr>
  );
}

export function RunList() {
  const { runs, instances, runFilter, runPage, runPageHasMore, filterRuns, loadMoreRuns } = useApp();
  const action = useAction();
  useEffect(() => {
    void filterRuns().catch(() => undefined);
  }, [filterRuns]);
  const nameOf = (id: string) => {
    const instance = instances.find((each) => each.id === id);
    return instance ? instanceLabel(instance) : id;
  };
  const shown = visibleRuns(runPage, runs, runFilter, runPageHasMore);
  const filtered = Boolean(runFilter.status || runFilter.source || runFilter.instanceId);
  if (shown.length === 0 && !filtered && runPage !== undefined) {
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
      <RunFilters filter={runFilter} instances={instances} onChange={(filter) => void action.run(() => filterRuns(filter))} />
      <ErrorLine message={action.error?.message} />
      {shown.length === 0 ? (
        <Empty title={runPage === undefined ? 'Loading…' : 'No runs match'}>{runPage === undefined ? '' : 'Try another status, source or instance.'}</Empty>
      ) : (
        <ScrollBox label="Runs, the table">
        <table className="runs">
          <thead><tr><th>Started</th><th>Status</th><th>Source</th><th>Instance</th><th>Summary or prompt</th></tr></thead>
          <tbody>
            {foldQuiet(shown, quietRun).map((entry) =>
              entry.kind === 'item' ? (
                <RunRow key={entry.item.id} run={entry.item} instanceName={nameOf(entry.item.instanceId)} />
              ) : (
                <QuietFold key={entry.key} as="row" sourceId={entry.sourceId} runs={entry.items.length} at={entry.items[0].startedAt ?? entry.items[0].createdAt}>
                  {entry.items.map((run) => <RunRow key={run.id} run={run} instanceName={nameOf(run.instanceId)} />)}
                </QuietFold>
              ),
            )}
          </tbody>
        </table>
        </ScrollBox>
      )}
      {runPageHasMore && (
        <div className="bar" style={{ marginTop: 10 }}>
          <button type="button" disabled={action.busy} onClick={() => void action.run(loadMoreRuns)}>Load more</button>
        </div>
      )}
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
  return <Turns messages={messages} />;
}

export function ThreadView({ id }: { id: string }) {
  return (
    <section aria-labelledby="thread-title">
      <h2 id="thread-title">History</h2>
      <Transcript threadId={id} />
    </section>
  );
}
