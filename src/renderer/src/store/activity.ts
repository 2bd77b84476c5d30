// The activity feed as the UI shows it: the latest lines, then new ones as they arrive live;
// filters (time window, kinds, instances) are applied by the view.
import type { ActivityEvent } from '../../../shared/contract';
import type { Slice } from '.';

const kept = 2_000;

export interface ActivitySlice {
  activity: ActivityEvent[];
  loadActivity: () => Promise<void>;
  addActivity: (event: ActivityEvent) => void;
}

export const activitySlice: Slice<ActivitySlice> = (set, get) => ({
  activity: [],
  async loadActivity() {
    const feed = await get().client.call('activity.list', { query: { limit: 1000 } });
    set({ activity: feed.events });
  },
  addActivity(event) {
    const known = get().activity;
    if (known.some((line) => line.instanceId === event.instanceId && line.line === event.line)) return;
    set({ activity: [...known, event].slice(-kept) });
  },
});
