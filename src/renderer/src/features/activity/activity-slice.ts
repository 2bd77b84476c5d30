// The activity feed as the UI shows it: the newest lines that match the filters, asked of the
// server (so an old match is found however many lines came since), older pages on demand, and new
// lines as they arrive live, kept when the same filters' predicate passes them.
import type { ActivityEvent } from '../../../../shared/contract';
import { type ActivityFilters, activityQuery, matchesActivity, noFilters } from './activity-filters';
import type { Slice } from '../../store';

const kept = 2_000;
export const activityPageSize = 200;

const keyOf = (line: ActivityEvent) => `${line.instanceId}:${line.line}`;

export interface ActivitySlice {
  /** Loaded lines matching `activityFilters`, oldest first. */
  activity: ActivityEvent[];
  activityFilters: ActivityFilters;
  /** Older matching lines may be on the server. */
  activityHasOlder: boolean;
  /** Loads the newest page for a set of filters (the current ones when omitted). */
  loadActivity: (filters?: ActivityFilters) => Promise<void>;
  /** Loads the page before the oldest loaded line. */
  loadOlderActivity: () => Promise<void>;
  /** Live lines: those the filters keep join the feed. */
  addActivities: (lines: ActivityEvent[]) => void;
}

export const activitySlice: Slice<ActivitySlice> = (set, get) => {
  // A filter changed while a page was on its way: the older answer is dropped.
  let generation = 0;
  return {
    activity: [],
    activityFilters: noFilters,
    activityHasOlder: false,
    async loadActivity(filters = get().activityFilters) {
      const mine = ++generation;
      set({ activityFilters: filters });
      const feed = await get().client.call('activity.list', { query: activityQuery(filters, Date.now(), activityPageSize) });
      if (mine !== generation) return;
      set({ activity: feed.events, activityHasOlder: feed.events.length === activityPageSize });
    },
    async loadOlderActivity() {
      const { activity, activityFilters, client } = get();
      const oldest = activity[0];
      if (!oldest) return;
      const mine = generation;
      const feed = await client.call('activity.list', { query: activityQuery(activityFilters, Date.now(), activityPageSize, oldest.timestamp) });
      if (mine !== generation) return;
      const known = new Set(get().activity.map(keyOf));
      const older = feed.events.filter((line) => !known.has(keyOf(line)));
      set({ activity: [...older, ...get().activity], activityHasOlder: older.length > 0 && feed.events.length === activityPageSize });
    },
    addActivities(lines) {
      const { activity, activityFilters } = get();
      const known = new Set(activity.map(keyOf));
      const now = Date.now();
      const added = lines.filter((line) => !known.has(keyOf(line)) && matchesActivity(line, activityFilters, now) && known.add(keyOf(line)));
      if (added.length === 0) return;
      const all = [...activity, ...added];
      // The oldest fall off the end (never below what the reader loaded); they stay on the server, a "Load older" away.
      const room = Math.max(kept, activity.length);
      set(all.length > room ? { activity: all.slice(-room), activityHasOlder: true } : { activity: all });
    },
  };
};
