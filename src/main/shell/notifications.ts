// Native notifications when runs finish, as the setting and the automation's or webhook's own
// choice say (notify-policy.ts), and for Steward's own notices (an automation failing or missing
// fires, the time Steward was off, a budget reached); clicking one opens that run, or the feed.
import { Notification } from 'electron';
import type { Core } from '../core';
import { noticeOf } from '../core/services/notices';
import { notificationFor, shouldNotify } from './notify-policy';

export function notifyFinishedRuns(core: Core, open: (route: string) => void): () => void {
  return core.services.live.subscribe((event) => {
    if (!Notification.isSupported()) return;
    const setting = core.services.settings.get().notifications.on;
    if (event.type === 'activity') {
      const notice = noticeOf(event.event.raw);
      if (!notice || setting === 'none') return;
      const notification = new Notification({ title: notice.title, body: notice.body });
      notification.on('click', () => open(notice.automationId ? '/automations' : '/activity'));
      notification.show();
      return;
    }
    // A run's end is written, and announced, once.
    if (event.type !== 'run' || ['queued', 'running'].includes(event.run.status)) return;
    const { run } = event;
    const source = run.sourceId ? (core.store.automations.get(run.sourceId) ?? core.store.webhooks.get(run.sourceId)) : undefined;
    if (!shouldNotify(run, setting, source?.notify, core.store.runs.retried(run.id))) return;
    const notification = new Notification(notificationFor(run, source?.name));
    notification.on('click', () => open(`/runs/${run.id}`));
    notification.show();
  });
}
