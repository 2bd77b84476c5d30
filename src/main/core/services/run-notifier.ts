// Turns finished runs into notification deliveries: on each run change announced after commit, a
// run that reached a finished status gets one pending delivery per enabled channel that wants it
// (by outcome and source), written durably, then handed to the dispatcher. It listens to the store
// only while some channel exists, so without channels no writer builds changes for it.
import type { Run } from '../../../shared/contract';
import { newId } from '../ids';
import { readSettings } from '../settings';
import type { ChannelRecord } from '../store/repositories/notification-channels';
import type { ServiceContext } from './context';
import type { NotificationDispatcher } from './notification-dispatcher';
import { type RunNotice, buildNotification } from './notification-message';

/** Deliveries kept per channel, newest first: the log shows recent ones, it is not an archive. */
export const deliveriesKept = 1_000;

const failures = new Set(['failed', 'timed_out', 'interrupted']);
const finished = new Set(['succeeded', 'failed', 'cancelled', 'timed_out', 'interrupted']);

/** Whether a channel's `on` takes this ending: a failure always (but under successes); a run whose agent had nothing to report never. */
function endingWanted(on: ChannelRecord['on'], run: Pick<Run, 'status' | 'outcome'>): boolean {
  if (failures.has(run.status)) return on !== 'successes';
  if (run.outcome === 'nothing_to_report') return false;
  if (on === 'all') return finished.has(run.status);
  return run.status === 'succeeded' && (on === 'successes' || (on === 'attention' && run.outcome === 'needs_attention'));
}

/** Whether a channel tells of this run: its ending (cancelled only under `all`) and its sources. */
export function channelWants(channel: Pick<ChannelRecord, 'on' | 'sources'>, run: Pick<Run, 'status' | 'outcome' | 'source' | 'sourceId' | 'instanceId'>): boolean {
  if (!endingWanted(channel.on, run)) return false;
  if (channel.sources.length === 0) return true;
  return channel.sources.some((source) => (source.type === 'instance' ? source.id === run.instanceId : source.type === run.source && source.id === run.sourceId));
}

/** Where links point: the setting, or Steward's own URL. */
export function linkBase(context: ServiceContext): string {
  return (readSettings(context.store).notifications.linkBaseUrl ?? context.baseUrl()).replace(/\/+$/, '');
}

export function runNotice(context: ServiceContext, run: Run): RunNotice {
  const { store } = context;
  const named = run.source === 'automation' ? store.automations.get(run.sourceId ?? '')?.name : run.source === 'webhook' ? store.webhooks.get(run.sourceId ?? '')?.name : undefined;
  const name = named ?? (run.source === 'chat' ? 'chat' : run.source === 'api' ? 'API' : `a deleted ${run.source}`);
  const instance = store.instances.get(run.instanceId);
  const durationSeconds = run.startedAt && run.finishedAt ? Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 100) / 10 : null;
  return {
    event: `run.${run.status}`,
    status: run.status,
    runId: run.id,
    error: run.error,
    outcome: run.outcome ?? null,
    summary: run.summary ?? null,
    source: { type: run.source, id: run.sourceId, name },
    instance: instance ? { id: instance.id, name: instance.name } : null,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationSeconds,
    url: `${linkBase(context)}/#/runs/${run.id}`,
    timestamp: run.finishedAt ?? context.now().toISOString(),
  };
}

export function createRunNotifier(context: ServiceContext, dispatcher: NotificationDispatcher) {
  const { store, logger } = context;
  let unsubscribe: (() => void) | undefined;
  let active = false;

  function notify(runId: string): void {
    const run = store.runs.get(runId);
    // A failed run that is retried says nothing: its last attempt's end does.
    if (!run || !finished.has(run.status) || store.runs.retried(run.id)) return;
    const channels = store.notificationChannels.enabled().filter((channel) => channelWants(channel, run));
    if (channels.length === 0) return;
    const notice = runNotice(context, run);
    const createdAt = context.now().toISOString();
    let added = false;
    store.transaction(() => {
      for (const channel of channels) {
        const { headers, body } = buildNotification(channel.kind, notice);
        const id = newId('ntf');
        added = store.notificationDeliveries.insert({ id, channelId: channel.id, runId: run.id, event: notice.event, requestHeaders: headers, requestBody: body, createdAt, nextAttemptAt: dispatcher.firstAttemptAt() }) || added;
        store.notificationDeliveries.keepNewest(channel.id, deliveriesKept);
      }
    });
    if (added) dispatcher.pump();
  }

  /** Listens while channels exist; call after channels are created or deleted. */
  function sync(): void {
      if (!active) return;
      const wanted = store.notificationChannels.count() > 0;
      if (wanted && !unsubscribe) {
        unsubscribe = store.subscribe((change) => {
          if (change.type !== 'run') return;
          try {
            notify(change.runId);
          } catch (error) {
            // Never the run's problem: it has finished whatever happens here.
            logger.error({ err: error, runId: change.runId }, 'could not queue run notifications');
          }
        });
      } else if (!wanted && unsubscribe) {
        unsubscribe();
        unsubscribe = undefined;
      }
  }

  return {
    sync,
    start(): void {
      active = true;
      sync();
    },
    stop(): void {
      active = false;
      unsubscribe?.();
      unsubscribe = undefined;
    },
  };
}

export type RunNotifier = ReturnType<typeof createRunNotifier>;
