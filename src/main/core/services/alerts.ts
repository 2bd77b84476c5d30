// Which feed lines call for a notification beyond a run's end, and what it says: an approval
// requested (its `approval.requested` line) and Steward's notices (`notice` lines). Read from the
// line the store announces, so watching for them costs nothing beyond what the run notifier's
// subscription already costs, and nothing at all while no channel exists.
import type { Approval, Run } from '../../../shared/contract';
import { readSettings } from '../settings';
import type { StoredActivityLine } from '../store/commit-hooks';
import type { ChannelRecord } from '../store/repositories/notification-channels';
import type { ApprovalRecord } from '../store/repositories/approvals';
import type { ApprovalAlert, NoticeAlert } from './alert-messages';
import type { ServiceContext } from './context';
import { type NoticeKind, noticeOf } from './notices';

/** Where links point: the setting, or Steward's own URL. */
export function linkBase(context: ServiceContext): string {
  return (readSettings(context.store).notifications.linkBaseUrl ?? context.baseUrl()).replace(/\/+$/, '');
}

/** The automation's or webhook's name, or what else started the run. */
export function sourceName(context: ServiceContext, run: Pick<Run, 'source' | 'sourceId'>): string {
  const { store } = context;
  const named = run.source === 'automation' ? store.automations.get(run.sourceId ?? '')?.name : run.source === 'webhook' ? store.webhooks.get(run.sourceId ?? '')?.name : undefined;
  return named ?? (run.source === 'chat' ? 'chat' : run.source === 'api' ? 'API' : `a deleted ${run.source}`);
}

const noticeEvents: Record<NoticeKind, string> = {
  'automation-unhealthy': 'automation.unhealthy',
  'automation-recovered': 'automation.recovered',
  'steward-was-off': 'steward.was_off',
  'over-budget': 'budget.reached',
};

/** What a channel matches a line's subject by: its run's source, or a notice's automation, and the instance. */
export interface Subject {
  source?: { type: string; id: string | null };
  instanceId: string;
}

export function sourcesMatch(channel: Pick<ChannelRecord, 'sources'>, subject: Subject): boolean {
  if (channel.sources.length === 0) return true;
  return channel.sources.some((source) => (source.type === 'instance' ? source.id === subject.instanceId : source.type === subject.source?.type && source.id === subject.source.id));
}

/** An approval or a notice calls for attention: every channel hears of it but those that want only successes. */
export const wantsAlerts = (channel: Pick<ChannelRecord, 'on'>): boolean => channel.on !== 'successes';

/** The approval a feed line's raw JSON says was requested, if it says so (cheap for every other line). */
export function requestedApprovalId(raw: string): string | undefined {
  if (!raw.startsWith('{"type":"approval.requested"')) return undefined;
  return (JSON.parse(raw) as { approvalId?: string }).approvalId;
}

export const isNoticeLine = (line: StoredActivityLine): boolean => line.raw.startsWith('{"type":"notice"');

/** How old a feed line may be and still call for attention: a remote's lines arrive late when it comes back (or is first added, with its history), and old news tells no one. */
const freshForMs = 15 * 60 * 1000;
export const isFreshLine = (timestamp: string, now: Date): boolean => now.getTime() - Date.parse(timestamp) < freshForMs;

/** Who asks, in words: "The automation Nightly on Claude", "A chat run on Claude". */
export function askerOf(context: ServiceContext, run: Pick<Run, 'source' | 'sourceId' | 'instanceId'>): string {
  const instance = context.store.instances.get(run.instanceId);
  const source = run.source === 'automation' || run.source === 'webhook' ? `The ${run.source} ${sourceName(context, run)}` : `A ${sourceName(context, run)} run`;
  return `${source}${instance ? ` on ${instance.name}` : ''}`;
}

export function approvalAlert(context: ServiceContext, record: ApprovalRecord, present: (record: ApprovalRecord) => Approval): { alert: ApprovalAlert; subject: Subject } | undefined {
  const approval = present(record);
  const run = context.store.runs.get(record.runId);
  if (!approval.links || !run) return undefined; // decided before it could be told
  const asker = askerOf(context, run);
  return {
    alert: { approval: { ...approval, links: approval.links }, asker, url: `${linkBase(context)}/#/runs/${run.id}`, timestamp: record.createdAt },
    subject: { source: { type: run.source, id: run.sourceId }, instanceId: run.instanceId },
  };
}

export function noticeAlert(context: ServiceContext, line: StoredActivityLine): { alert: NoticeAlert; subject: Subject } | undefined {
  const notice = noticeOf(line.raw);
  if (!notice) return undefined;
  const automationId = notice.automationId ?? null;
  return {
    alert: {
      event: noticeEvents[notice.kind] ?? `notice.${notice.kind}`,
      kind: notice.kind,
      title: notice.title,
      body: notice.body,
      instanceId: notice.instanceId,
      automationId,
      url: `${linkBase(context)}/#/${automationId ? 'automations' : 'activity'}`,
      timestamp: line.timestamp,
    },
    subject: { ...(automationId ? { source: { type: 'automation', id: automationId } } : {}), instanceId: notice.instanceId },
  };
}
