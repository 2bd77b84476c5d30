// Every live subscription of the UI, in one place: activity lines join the feed, run changes
// update the runs, instance changes their cards, a changed automation, webhook, approval, remote
// Steward or API key is reloaded (an approval decided anywhere leaves every window's pending list). A
// line of a run whose thread or messages are shown fetches only what is new; a run that changes
// status refreshes its instance's chats and its automation (last and next run); a webhook's new
// run refreshes its shown deliveries, whose rows follow its runs. A `resync` (the stream
// opened, reconnected, or fell behind) reloads everything shown (which resources came from files
// too), since events may have been missed meanwhile.
import type { ActivityEvent } from '../../../shared/contract';
import type { StreamEvent } from '../lib/api';
import type { AppStore } from '.';

/** How long activity lines gather before the store takes them: 10,000 lines are a few hundred updates, not 10,000. */
export const activityBatchMs = 100;

export function followLiveEvents(store: AppStore): () => void {
  let pending: ActivityEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  function flush(): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const lines = pending;
    pending = [];
    const state = store.getState();
    state.addActivities(lines);
    // Each run said something: what is shown of it asks once for what is new (at most one request in flight).
    for (const runId of new Set(lines.map((line) => line.runId))) if (runId) state.runProgressed(runId);
  }

  /** Everything the window shows, loaded again; what is not shown is loaded when it is opened. */
  function reloadShown(): void {
    const state = store.getState();
    const quietly = (work: Promise<unknown>) => void work.catch(() => undefined);
    for (const load of [state.loadAutomations, state.loadWebhooks, state.loadInstances, state.loadRuns, state.loadSettings, state.loadHealth, state.loadApprovals]) quietly(load());
    quietly(state.loadActivity());
    if (state.remotes !== undefined) quietly(state.loadRemotes());
    if (state.config !== undefined) quietly(state.loadConfig());
    if (state.runPage !== undefined) quietly(state.filterRuns());
    for (const threadId of Object.keys(state.threads)) quietly(state.loadThread(threadId));
    for (const runId of Object.keys(state.runMessages)) quietly(state.loadRunMessages(runId));
    for (const runId of Object.keys(state.runQueues)) quietly(state.loadRun(runId));
    for (const instanceId of Object.keys(state.chats)) quietly(state.loadChats(instanceId));
    for (const webhookId of state.shownDeliveries()) quietly(state.loadDeliveries(webhookId));
  }

  function onEvent(event: StreamEvent): void {
    if (event.type === 'resync') {
      flush();
      reloadShown();
      return;
    }
    if (event.type === 'activity') {
      pending.push(event.event);
      timer ??= setTimeout(flush, activityBatchMs);
      return;
    }
    // Lines that came before a change are taken first, so nothing is seen out of order.
    flush();
    const state = store.getState();
    if (event.type === 'instance') {
      state.upsertInstance(event.instance);
      state.configChanged();
      return;
    }
    if (event.type === 'changed') {
      // A resource made, renamed or deleted (a folder applied, say) may have gained or lost its file.
      if (event.resource === 'automation' || event.resource === 'webhook') state.configChanged();
      if (event.resource === 'automation') void state.refreshAutomation(event.id).catch(() => undefined);
      else if (event.resource === 'approval') void state.loadApprovals().catch(() => undefined);
      else if (event.resource === 'remote') void state.remoteChanged(event.id).catch(() => undefined);
      else if (event.resource === 'apiKey') void state.loadApiKeys().catch(() => undefined);
      else if (event.resource === 'delivery') {
        // Only a list that is open reloads: refused and duplicate requests start no run to tell it.
        if (state.shownDeliveries().includes(event.id)) void state.loadDeliveries(event.id).catch(() => undefined);
      }
      else void state.loadWebhooks().catch(() => undefined);
      return;
    }
    const { run } = event;
    state.upsertRun(run);
    if (run.status === 'succeeded') state.noteSuccess();
    // The end of a run writes its last lines: whatever is shown of it catches up.
    if (!['queued', 'running'].includes(run.status)) state.runProgressed(run.id);
    if (state.chats[run.instanceId]) void state.loadChats(run.instanceId).catch(() => undefined);
    // A queued run moved its automation's next run on; a finished one set its last run.
    if (run.source === 'automation' && run.sourceId && run.status !== 'running') void state.refreshAutomation(run.sourceId).catch(() => undefined);
    // A webhook's run, new or changed: its shown deliveries follow it; a new run is a new delivery.
    state.deliveryRunChanged(run);
  }

  const unsubscribe = store.getState().client.subscribe(onEvent);
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    unsubscribe();
  };
}
