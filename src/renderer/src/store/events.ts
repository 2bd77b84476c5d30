// Every live subscription of the UI, in one place: activity lines join the feed, run changes
// update the runs, instance changes their cards, and a finished run refreshes its transcript.
import type { AppStore } from '.';

export function followLiveEvents(store: AppStore): () => void {
  return store.getState().client.subscribe((event) => {
    const state = store.getState();
    if (event.type === 'activity') {
      state.addActivity(event.event);
      const threadId = state.runs.find((run) => run.id === event.event.runId)?.threadId;
      if (threadId && state.threads[threadId]) void state.loadThread(threadId);
      return;
    }
    if (event.type === 'instance') {
      state.upsertInstance(event.instance);
      return;
    }
    state.upsertRun(event.run);
    if (!['queued', 'running'].includes(event.run.status)) void state.loadThread(event.run.threadId);
  });
}
