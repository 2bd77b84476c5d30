// The activity view's filters: the time windows, the predicate that keeps a line (for live lines
// as they arrive) and the same filters as a query for GET /api/activity (for what is loaded).
import type { ActivityEvent } from '../../../../shared/contract';

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

export const isUnfiltered = (filters: ActivityFilters): boolean => filters.window === 'all' && filters.kinds.length === 0 && filters.instanceIds.length === 0;

/** Whether a custom range ends before it begins: nothing can match, so it is said, not asked. */
export const isReversedRange = (range: { from: string; to: string }): boolean =>
  range.from !== '' && range.to !== '' && Date.parse(range.from) > Date.parse(range.to);

/** The time span a set of filters keeps at `now`: from inclusive, to inclusive. */
function span(filters: ActivityFilters, now: number): { from: number; to: number } {
  const width = timeWindows.find(([name]) => name === filters.window)![1];
  if (filters.window !== 'custom') return { from: now - width, to: Infinity };
  return { from: filters.from ? Date.parse(filters.from) : -Infinity, to: filters.to ? Date.parse(filters.to) : Infinity };
}

/** Whether a line passes the filters at `now`. */
export function matchesActivity(line: ActivityEvent, filters: ActivityFilters, now: number): boolean {
  const { from, to } = span(filters, now);
  const at = Date.parse(line.timestamp);
  return at >= from && at <= to && (filters.kinds.length === 0 || filters.kinds.includes(line.kind)) && (filters.instanceIds.length === 0 || filters.instanceIds.includes(line.instanceId));
}

/** The lines a set of filters keeps, at `now`. */
export const filterActivity = (lines: ActivityEvent[], filters: ActivityFilters, now: number): ActivityEvent[] => lines.filter((line) => matchesActivity(line, filters, now));

const iso = (at: number): string | undefined => (Number.isFinite(at) ? new Date(at).toISOString() : undefined);

/**
 * The filters as GET /api/activity's query at `now`. `before` (a timestamp, inclusive) pages back
 * from the oldest line loaded; the API's `until` is exclusive, so it asks up to a millisecond past
 * and the caller drops the lines it already has (lines of the same millisecond are not lost).
 */
export function activityQuery(filters: ActivityFilters, now: number, limit: number, before?: string): Record<string, string | number | undefined> {
  const { from, to } = span(filters, now);
  const upTo = Math.min(to, before === undefined ? Infinity : Date.parse(before));
  return {
    limit,
    since: iso(from),
    until: iso(upTo + 1),
    kinds: filters.kinds.join(',') || undefined,
    instanceIds: filters.instanceIds.join(',') || undefined,
  };
}
