// Turns what happens into notification deliveries: on each change announced after commit, a run
// that reached a finished status, an approval requested (its feed line) and one of Steward's
// notices (its feed line) each get one pending delivery per enabled channel that wants it (by
// outcome and source), written durably, then handed to the dispatcher. It listens to the store
// only while some channel exists, so without channels no writer builds changes for it.
import type { Approval, Instance, Run } from '../../../shared/contract';
import { newId } from '../ids';
import type { StoreChange, StoredActivityLine } from '../store/commit-hooks';
import type { ApprovalRecord } from '../store/repositories/approvals';
import type { ChannelRecord } from '../store/repositories/notification-channels';
import { approvalMessage, noticeMessage } from './alert-messages';
import { approvalAlert, isFreshLine, isNoticeLine, linkBase, noticeAlert, requestedApprovalId, sourceName, sourcesMatch, wantsAlerts } from './alerts';
import type { ServiceContext } from './context';
import type { NotificationDispatcher } from './notification-dispatcher';
import { type NotificationRequest, type RunNotice, buildNotification } from './notification-message';

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
  return sourcesMatch(channel, { source: { type: run.source, id: run.sourceId }, instanceId: run.instanceId });
}

/** `known`: for a remote's run, its instance and source name as found there. */
export function runNotice(context: ServiceContext, run: Run, known: { instance?: Pick<Instance, 'id' | 'name'> | undefined; sourceName?: string | undefined } = {}): RunNotice {
  const instance = known.instance ?? context.store.instances.get(run.instanceId);
  const durationSeconds = run.startedAt && run.finishedAt ? Math.round((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 100) / 10 : null;
  return {
    event: `run.${run.status}`,
    status: run.status,
    runId: run.id,
    error: run.error,
    outcome: run.outcome ?? null,
    summary: run.summary ?? null,
    source: { type: run.source, id: run.sourceId, name: known.sourceName ?? sourceName(context, run) },
    instance: instance ? { id: instance.id, name: instance.name } : null,
    startedAt: run.startedAt,
    finishedAt: run.finishedAt,
    durationSeconds,
    url: `${linkBase(context)}/#/runs/${run.id}`,
    timestamp: run.finishedAt ?? context.now().toISOString(),
  };
}

interface Delivery {
  channels: ChannelRecord[];
  /** What it tells of, once per channel: the run, the approval, the notice's line. */
  about: string;
  runId: string | null;
  event: string;
  build: (channel: ChannelRecord) => NotificationRequest;
}

export interface RunNotifierDeps {
  presentApproval: (record: ApprovalRecord) => Approval;
  /** A remote instance as shown here; undefined for this Steward's own. */
  remoteInstance: (id: string) => Instance | undefined;
  /** The name of a remote run's automation or webhook, asked of its Steward. */
  remoteSourceName: (run: Run) => Promise<string | undefined>;
}

export function createRunNotifier(context: ServiceContext, dispatcher: NotificationDispatcher, deps: RunNotifierDeps) {
  const { store, logger } = context;
  let unsubscribe: (() => void) | undefined;
  let active = false;

  function queue({ channels, about, runId, event, build }: Delivery): void {
    if (channels.length === 0) return;
    const createdAt = context.now().toISOString();
    let added = false;
    store.transaction(() => {
      for (const channel of channels) {
        const { headers, body } = build(channel);
        const delivery = { id: newId('ntf'), channelId: channel.id, runId, about, event, requestHeaders: headers, requestBody: body, createdAt, nextAttemptAt: dispatcher.firstAttemptAt() };
        added = store.notificationDeliveries.insert(delivery) || added;
        store.notificationDeliveries.keepNewest(channel.id, deliveriesKept);
      }
    });
    if (added) dispatcher.pump();
  }

  function runEnded(runId: string): void {
    const run = store.runs.get(runId);
    // A failed run that is retried says nothing: its last attempt's end does.
    if (!run || !finished.has(run.status) || store.runs.retried(run.id)) return;
    const notice = runNotice(context, run);
    const channels = store.notificationChannels.enabled().filter((channel) => channelWants(channel, run));
    queue({ channels, about: run.id, runId: run.id, event: notice.event, build: (channel) => buildNotification(channel.kind, notice) });
  }

  /** A remote's run that ended, as its Steward announced it: told like a local one. */
  async function remoteRunEnded(run: Run): Promise<void> {
    const instance = deps.remoteInstance(run.instanceId);
    if (!unsubscribe || !instance || !finished.has(run.status)) return;
    const channels = store.notificationChannels.enabled().filter((channel) => channelWants(channel, run));
    if (channels.length === 0) return;
    const name = await deps.remoteSourceName(run).catch(() => undefined);
    const notice = runNotice(context, run, { instance, sourceName: name ?? (run.source === 'chat' ? 'chat' : run.source === 'api' ? 'API' : `a ${run.source} on ${instance.fqdn}`) });
    queue({ channels, about: run.id, runId: null, event: notice.event, build: (channel) => buildNotification(channel.kind, notice) });
  }

  function lineWritten(line: StoredActivityLine): void {
    if (!isFreshLine(line.timestamp, context.now())) return;
    const approvalId = requestedApprovalId(line.raw);
    const record = approvalId === undefined ? undefined : store.approvals.get(approvalId);
    const asked = record && approvalAlert(context, record, deps.presentApproval);
    if (asked) {
      const channels = store.notificationChannels.enabled().filter((channel) => wantsAlerts(channel) && sourcesMatch(channel, asked.subject));
      queue({ channels, about: asked.alert.approval.id, runId: asked.alert.approval.runId, event: 'approval.requested', build: (channel) => approvalMessage(channel.kind, asked.alert) });
      return;
    }
    const told = isNoticeLine(line) ? noticeAlert(context, line) : undefined;
    if (!told) return;
    const channels = store.notificationChannels.enabled().filter((channel) => wantsAlerts(channel) && sourcesMatch(channel, told.subject));
    queue({ channels, about: `line:${line.seq}`, runId: null, event: told.alert.event, build: (channel) => noticeMessage(channel.kind, told.alert) });
  }

  function changed(change: StoreChange): void {
    try {
      if (change.type === 'run') runEnded(change.runId);
      else if (change.type === 'activity') lineWritten(change.line);
    } catch (error) {
      // Never the run's problem: what it tells of has happened whatever happens here.
      logger.error({ err: error, change: change.type }, 'could not queue notifications');
    }
  }

  /** Listens while channels exist; call after channels are created or deleted. */
  function sync(): void {
    if (!active) return;
    const wanted = store.notificationChannels.count() > 0;
    if (wanted && !unsubscribe) {
      unsubscribe = store.subscribe(changed);
    } else if (!wanted && unsubscribe) {
      unsubscribe();
      unsubscribe = undefined;
    }
  }

  return {
    sync,
    remoteRunEnded(run: Run): void {
      remoteRunEnded(run).catch((error: unknown) => logger.error({ err: error }, 'could not queue notifications for a remote run'));
    },
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
