// Activity: filters on the left (time window, kind, instance, reset), the stream on the right with
// new lines arriving live; cron and hook tags show where a line came from.
import { useMemo, useState } from 'react';
import { type ActivityEvent, activityKinds } from '../../../shared/contract';
import { Avatar, Empty } from '../components/ui';
import { useApp } from '../lib/app-context';

export const timeWindows = [
  ['5m', 5 * 60e3], ['15m', 15 * 60e3], ['30m', 30 * 60e3], ['1h', 3600e3], ['6h', 6 * 3600e3],
  ['24h', 24 * 3600e3], ['7d', 7 * 86400e3], ['30d', 30 * 86400e3], ['all', Infinity], ['custom', NaN],
] as const;
type WindowName = (typeof timeWindows)[number][0];

export interface ActivityFilters {
  window: WindowName;
  from: string;
  to: string;
  kinds: string[];
  instanceIds: string[];
}

export const noFilters: ActivityFilters = { window: 'all', from: '', to: '', kinds: [], instanceIds: [] };

/** The lines a set of filters keeps, at `now`. */
export function filterActivity(lines: ActivityEvent[], filters: ActivityFilters, now: number): ActivityEvent[] {
  const span = timeWindows.find(([name]) => name === filters.window)![1];
  const from = filters.window === 'custom' ? (filters.from ? Date.parse(filters.from) : -Infinity) : now - span;
  const to = filters.window === 'custom' && filters.to ? Date.parse(filters.to) : Infinity;
  return lines.filter((line) => {
    const at = Date.parse(line.timestamp);
    return at >= from && at <= to && (filters.kinds.length === 0 || filters.kinds.includes(line.kind)) && (filters.instanceIds.length === 0 || filters.instanceIds.includes(line.instanceId));
  });
}

const toggle = (list: string[], value: string) => (list.includes(value) ? list.filter((each) => each !== value) : [...list, value]);

export function Activity() {
  const { activity, instances } = useApp();
  const [filters, setFilters] = useState<ActivityFilters>(noFilters);
  const shown = useMemo(() => filterActivity(activity, filters, Date.now()).slice().reverse(), [activity, filters]);
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <div className="split">
        <aside className="filters" aria-label="Filters">
          <fieldset>
            <legend>Time</legend>
            <div className="chips">
              {timeWindows.map(([name]) => (
                <button key={name} aria-pressed={filters.window === name} onClick={() => setFilters({ ...filters, window: name })}>{name}</button>
              ))}
            </div>
            {filters.window === 'custom' && (
              <>
                <label className="field"><span>From</span><input type="datetime-local" value={filters.from} onChange={(event) => setFilters({ ...filters, from: event.target.value })} /></label>
                <label className="field"><span>To</span><input type="datetime-local" value={filters.to} onChange={(event) => setFilters({ ...filters, to: event.target.value })} /></label>
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
              {instances.map((instance) => <button key={instance.id} aria-pressed={filters.instanceIds.includes(instance.id)} onClick={() => setFilters({ ...filters, instanceIds: toggle(filters.instanceIds, instance.id) })}>{instance.name}</button>)}
            </div>
          </fieldset>
          <button onClick={() => setFilters(noFilters)}>Reset filters</button>
        </aside>
        <div className="stream card" role="log" aria-label="Activity stream" style={{ padding: 0 }}>
          {shown.length === 0 ? (
            <Empty title={activity.length === 0 ? 'Nothing has happened yet' : 'No lines match the filters'}>
              {activity.length === 0 ? 'Every message, tool call and result of every agent lands here, live. Create an automation or a webhook to start.' : 'Widen the time window or reset the filters.'}
            </Empty>
          ) : (
            shown.map((line) => {
              // An instance renamed since shows its name of now.
              const instance = instances.find((each) => each.id === line.instanceId) ?? { name: line.instanceName, avatarUrl: line.avatarUrl };
              return (
              <div className="line" key={`${line.instanceId}:${line.line}`} data-kind={line.kind}>
                <time dateTime={line.timestamp} title={new Date(line.timestamp).toLocaleString()}>{new Date(line.timestamp).toLocaleTimeString()}</time>
                <Avatar url={instance.avatarUrl} name={instance.name} small />
                <span className="hint">{instance.name}</span>
                <span>
                  {line.label && <span className={`tag ${line.label}`}>{line.label}</span>}
                  <span className="tag">{line.kind}</span>
                  {line.runId ? <a href={`#/runs/${line.runId}`}>{line.displayText}</a> : line.displayText}
                </span>
              </div>
              );
            })
          )}
        </div>
      </div>
    </section>
  );
}
