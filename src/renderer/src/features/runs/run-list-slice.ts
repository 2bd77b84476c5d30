// The runs list's filters and pages: the newest runs matching the filter, then older pages with
// `before=<last run id>`. Live runs reach the list through the runs slice (RunList merges them).
import type { Run, RunSource, RunStatus } from '../../../../shared/contract';
import type { Slice } from '../../store';

export interface RunFilter {
  status?: RunStatus | undefined;
  source?: RunSource | undefined;
  instanceId?: string | undefined;
}

export interface RunListSlice {
  runFilter: RunFilter;
  /** The pages loaded for the current filter, newest first; undefined before the first. */
  runPage: Run[] | undefined;
  runPageHasMore: boolean;
  /** Loads the first page for a filter (the current one when omitted). */
  filterRuns: (filter?: RunFilter) => Promise<void>;
  loadMoreRuns: () => Promise<void>;
}

export const runPageSize = 50;

export const matchesFilter = (run: Run, filter: RunFilter): boolean =>
  (!filter.status || run.status === filter.status) && (!filter.source || run.source === filter.source) && (!filter.instanceId || run.instanceId === filter.instanceId);

/**
 * What the list shows: the loaded pages, with the live runs slice's newer version of each run, and
 * the live runs that match and are newer than the last page (older ones would leave a gap).
 */
export function visibleRuns(page: Run[] | undefined, live: Run[], filter: RunFilter, hasMore: boolean): Run[] {
  const byId = new Map((page ?? []).map((run) => [run.id, run]));
  const oldest = page?.at(-1)?.id;
  for (const run of live) if (byId.has(run.id) || !page || !hasMore || !oldest || run.id > oldest) byId.set(run.id, run);
  return [...byId.values()].filter((run) => matchesFilter(run, filter)).sort((a, b) => b.id.localeCompare(a.id));
}

export const runListSlice: Slice<RunListSlice> = (set, get) => {
  // Asks one more than shown to know whether there is a next page.
  async function page(filter: RunFilter, before: string | undefined) {
    const { runs } = await get().client.call('runs.list', { query: { ...filter, before, limit: runPageSize + 1 } });
    return { runs: runs.slice(0, runPageSize), hasMore: runs.length > runPageSize };
  }
  return {
    runFilter: {},
    runPage: undefined,
    runPageHasMore: false,
    async filterRuns(filter = { ...get().runFilter }) {
      set({ runFilter: filter, runPage: undefined });
      const { runs, hasMore } = await page(filter, undefined);
      // A newer filter chosen meanwhile wins.
      if (get().runFilter === filter) set({ runPage: runs, runPageHasMore: hasMore });
    },
    async loadMoreRuns() {
      const { runFilter, runPage } = get();
      const { runs, hasMore } = await page(runFilter, runPage?.at(-1)?.id);
      if (get().runFilter === runFilter) set({ runPage: [...(runPage ?? []), ...runs], runPageHasMore: hasMore });
    },
  };
};
