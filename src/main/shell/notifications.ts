// Native notifications: when runs finish, as the setting and the automation's or webhook's own
// choice say (notify-policy.ts); for Steward's own notices (an automation failing or missing fires,
// the time Steward was off, a budget reached); and for each approval requested, with Allow and
// Deny buttons where the platform shows notification actions (macOS and Windows), deciding through
// the core's dispatch as the app does ('ui'); elsewhere a click opens the request. Electron's
// Notification comes in as an argument, so a faithful fake can stand in for it in tests.
import type { Approval } from '../../shared/contract';
import type { Core } from '../core';
import { noticeOf } from '../core/services/notices';
import { isFreshLine, requestedApprovalId } from '../core/services/alerts';
import { approvalNotification, decisionOfAction } from './approval-notice';
import { notificationFor, shouldNotify } from './notify-policy';

type Listener = (...args: any[]) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- Electron's own listener types

export interface NativeNotification {
  on(event: string, listener: Listener): unknown;
  show(): void;
  close(): void;
}

/** Electron's Notification class, or a fake of it. */
export interface NotificationApi {
  new (options: { title: string; body: string; actions?: { type: 'button'; text: string }[] }): NativeNotification;
  isSupported(): boolean;
}

export function showNotifications(core: Core, deps: { Notification: NotificationApi; platform: NodeJS.Platform; open: (route: string) => void }): () => void {
  const { Notification, open } = deps;
  // Held while shown: Electron stops a notification's events once nothing references it.
  const asking = new Map<string, NativeNotification>();

  function decide(id: string, decision: 'allow' | 'deny'): void {
    core.dispatch('approvals.decide', { params: { id }, body: { decision } }).catch((error: unknown) => {
      // Decided elsewhere a moment before: the page shows what became of it.
      console.error(`Steward could not ${decision} approval ${id}:`, error);
      open('/needs-you');
    });
  }

  /** This Steward's approval, or a remote's (asked of it: dispatch forwards it). */
  async function approvalOf(id: string): Promise<Approval | undefined> {
    try {
      return ((await core.dispatch('approvals.get', { params: { id } })) as { approval: Approval }).approval;
    } catch {
      return undefined;
    }
  }

  async function ask(id: string): Promise<void> {
    const approval = await approvalOf(id);
    if (approval?.status !== 'pending' || asking.has(id)) return;
    const { options, actions } = approvalNotification(approval, deps.platform);
    const notification = new Notification(options);
    notification.on('click', () => open('/needs-you'));
    if (actions) {
      // Electron 45 gives the index in the event's details; older ones as the second argument.
      notification.on('action', (details: { actionIndex?: number } | undefined, index?: number) => {
        const decision = decisionOfAction(details?.actionIndex ?? index);
        if (decision) decide(id, decision);
        else open('/needs-you');
      });
    }
    notification.on('close', () => asking.delete(id));
    asking.set(id, notification);
    notification.show();
  }

  const unsubscribe = core.services.live.subscribe((event) => {
    if (!Notification.isSupported()) return;
    const setting = core.services.settings.get().notifications.on;
    if (event.type === 'changed' && event.resource === 'approval') {
      // Decided anywhere: its notification goes.
      if (asking.has(event.id)) {
        void approvalOf(event.id).then((approval) => {
          if (approval?.status === 'pending') return;
          asking.get(event.id)?.close();
          asking.delete(event.id);
        });
      }
      return;
    }
    if (event.type === 'activity') {
      if (!isFreshLine(event.event.timestamp, core.clock.now())) return;
      const approvalId = requestedApprovalId(event.event.raw);
      if (approvalId && setting !== 'none') return void ask(approvalId);
      const notice = noticeOf(event.event.raw);
      if (!notice || setting === 'none') return;
      const notification = new Notification({ title: notice.title, body: notice.body });
      notification.on('click', () => open(notice.automationId ? '/automations' : '/activity'));
      notification.show();
      return;
    }
    // A run's end is written, and announced, once.
    if (event.type !== 'run' || ['queued', 'running', 'waiting'].includes(event.run.status)) return;
    const { run } = event;
    const source = run.sourceId ? (core.store.automations.get(run.sourceId) ?? core.store.webhooks.get(run.sourceId)) : undefined;
    if (!shouldNotify(run, setting, source?.notify, core.store.runs.retried(run.id))) return;
    const notification = new Notification(notificationFor(run, source?.name));
    notification.on('click', () => open(`/runs/${run.id}`));
    notification.show();
  });

  return () => {
    unsubscribe();
    for (const notification of asking.values()) notification.close();
    asking.clear();
  };
}
