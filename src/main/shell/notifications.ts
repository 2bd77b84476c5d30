// Native notifications when runs finish, as the setting and the automation's or webhook's own
// choice say (notify-policy.ts); clicking one opens that run in the window.
import { Notification } from 'electron';
import type { Core } from '../core';
import { notificationFor, shouldNotify } from './notify-policy';

export function notifyFinishedRuns(core: Core, openRun: (runId: string) => void): () => void {
  return core.services.live.subscribe((event) => {
    // A run's end is written, and announced, once.
    if (event.type !== 'run' || ['queued', 'running'].includes(event.run.status)) return;
    const { run } = event;
    const source = run.sourceId ? (core.store.automations.get(run.sourceId) ?? core.store.webhooks.get(run.sourceId)) : undefined;
    if (!shouldNotify(run, core.services.settings.get().notifications.on, source?.notify, core.store.runs.retried(run.id)) || !Notification.isSupported()) return;
    const notification = new Notification(notificationFor(run, source?.name));
    notification.on('click', () => openRun(run.id));
    notification.show();
  });
}
