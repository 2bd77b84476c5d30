// Activity: filters on the left (time window, kind, instance, reset; applied by the server, and to
// live lines as they arrive), the stream on the right with new lines arriving live and older pages
// on demand; cron and hook tags show where a line came from, and a host the sandbox refused has its
// "Allow" beside the line; the lines of runs with nothing to report fold into one per automation
// and day. On a first start, the onboarding card above it.
import { useMemo, useState } from 'react';
import { type ActivityEvent, activityKinds } from '../../../../shared/contract';
import { AllowHost } from '../sandbox/AllowHost';
import { Avatar, Empty, ErrorLine, Time, useAction } from '../../ui/widgets';
import { type ActivityFilters, isReversedRange, isUnfiltered, noFilters, timeWindows } from './activity-filters';
import { useApp } from '../../lib/app-context';
import { denialFromRaw } from '../sandbox/sandbox';
import { OnboardingGate } from '../onboarding/Onboarding';
import { foldQuiet, quietRunsOf } from '../../lib/quiet-folds';
import { QuietFold } from '../../ui/QuietFold';
import { instanceLabel } from '../instances/instance-label';
import { TimesInText } from '../../ui/TimesInText';

export { filterActivity, noFilters, timeWindows, type ActivityFilters } from './activity-filters';

const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((each) => each !== value) : [...list, value]);

function FeedLine({ line }: { line: ActivityEvent }) {
  const { instances } = useApp();
  // An instance renamed since shows its name of now.
  const known = instances.find((each) => each.id === line.instanceId);
  const instance = known ? { name: instanceLabel(known), avatarUrl: known.avatarUrl } : { name: line.instanceName, avatarUrl: line.avatarUrl };
  const shownText = line.kind === 'system' ? <TimesInText text={line.displayText} /> : line.displayText;
  return (
    <div className="line" data-kind={line.kind}>
      <Time iso={line.timestamp} />
      <Avatar url={instance.avatarUrl} name={instance.name} small />
      <span className="hint cut" title={instance.name}>{instance.name}</span>
      <span>
        {line.label && <span className={`tag ${line.label}`}>{line.label}</span>}
        <span className="tag">{line.kind}</span>
        {line.runId ? <a href={`#/runs/${line.runId}`}>{shownText}</a> : shownText}
        {line.kind === 'system' && <AllowHost instanceId={line.instanceId} denial={denialFromRaw(line.raw)} />}
      </span>
    </div>
  );
}

export function Activity() {
  const { activity, activityFilters: filters, activityHasOlder, loadActivity, loadOlderActivity, instances } = useApp();
  const action = useAction();
  // The server filters: an old match is found however many lines came since.
  const setFilters = (next: ActivityFilters) => void action.run(() => loadActivity(next));
  const shown = useMemo(() => activity.slice().reverse(), [activity]);
  // The custom range as typed: a reversed one is said at its fields and never asked of the server.
  const [draft, setDraft] = useState<{ from: string; to: string }>();
  const range = draft ?? { from: filters.from, to: filters.to };
  const reversed = filters.window === 'custom' && isReversedRange(range);
  const setRange = (next: { from: string; to: string }) => {
    setDraft(next);
    if (!isReversedRange(next)) setFilters({ ...filters, ...next });
  };
  // The lines of runs with nothing to report: one line per automation and day.
  const folded = useMemo(() => {
    const quiet = quietRunsOf(activity);
    return foldQuiet(shown, (line) => (line.runId === null ? undefined : quiet.get(line.runId)));
  }, [activity, shown]);
  return (
    <section aria-labelledby="activity-title">
      <OnboardingGate>
        <h2 id="activity-title">Activity</h2>
        <ErrorLine message={action.error?.message} />
        <div className="split">
          <aside className="filters" aria-label="Filters">
            <fieldset>
              <legend>Time</legend>
              <div className="chips">
                {timeWindows.map(([name]) => (
                  <button key={name} aria-pressed={filters.window === name} onClick={() => { setDraft(undefined); setFilters({ ...filters, window: name }); }}>{name}</button>
                ))}
              </div>
              {filters.window === 'custom' && (
                <>
                  <label className="field"><span>From</span><input type="datetime-local" value={range.from} aria-invalid={reversed || undefined} aria-describedby={reversed ? 'activity-range-error' : undefined} onChange={(event) => setRange({ ...range, from: event.target.value })} /></label>
                  <label className="field"><span>To</span><input type="datetime-local" value={range.to} aria-invalid={reversed || undefined} aria-describedby={reversed ? 'activity-range-error' : undefined} onChange={(event) => setRange({ ...range, to: event.target.value })} /></label>
                  {reversed && <div className="error" role="alert" id="activity-range-error">From is after To: the range is reversed, so nothing can match. Swap them, or pick another time.</div>}
                </>
              )}
            </fieldset>
            <fieldset>
              <legend>Kind</legend>
              <div className="chips">
                {activityKinds.map((kind) => <button key={kind} aria-pressed={filters.kinds.includes(kind)} onClick={() => setFilters({ ...filters, kinds: toggle(filters.kinds, kind) })}>{kind}</button>)}
              </div>
            </fieldset>
            <fieldset>
              <legend>Instance</legend>
              <div className="chips">
                {instances.map((instance) => <button key={instance.id} aria-pressed={filters.instanceIds.includes(instance.id)} onClick={() => setFilters({ ...filters, instanceIds: toggle(filters.instanceIds, instance.id) })}>{instanceLabel(instance)}</button>)}
              </div>
            </fieldset>
            <button onClick={() => { setDraft(undefined); setFilters(noFilters); }}>Reset filters</button>
          </aside>
          <div className="stream card" role="log" aria-label="Activity stream" style={{ padding: 0 }}>
            {reversed ? (
              <Empty title="The time range is reversed">From is after To: swap them to see lines.</Empty>
            ) : shown.length === 0 ? (
              <Empty title={isUnfiltered(filters) ? 'Nothing has happened yet' : 'No lines match the filters'}>
                {isUnfiltered(filters) ? 'Every message, tool call and result of every agent lands here, live. Create an automation or a webhook to start.' : 'Widen the time window or reset the filters.'}
              </Empty>
            ) : (
              folded.map((entry) =>
                entry.kind === 'item' ? (
                  <FeedLine key={`${entry.item.instanceId}:${entry.item.line}`} line={entry.item} />
                ) : (
                  <QuietFold key={entry.key} as="line" sourceId={entry.sourceId} runs={new Set(entry.items.map((line) => line.runId)).size} at={entry.items[0].timestamp}>
                    {entry.items.map((line) => <FeedLine key={`${line.instanceId}:${line.line}`} line={line} />)}
                  </QuietFold>
                ),
              )
            )}
            {activityHasOlder && <button className="load-older" disabled={action.busy} onClick={() => void action.run(loadOlderActivity)}>Load older</button>}
          </div>
        </div>
      </OnboardingGate>
    </section>
  );
}
