// Which finished runs notify, and what the notification says. Pure: the setting (all, failures
// only, none), overridden per automation or webhook, and the run decide; a run someone cancelled
// never notifies, nor does a failed one that is retried (its last attempt's end does).
import type { NotificationPolicy, NotifyOverride, Run } from '../../shared/contract';

const failures = new Set<Run['status']>(['failed', 'timed_out', 'interrupted']);

export function shouldNotify(run: Run, setting: NotificationPolicy, override: NotifyOverride = 'default', retried = false): boolean {
  const policy = override === 'default' ? setting : override;
  if (policy === 'none' || retried) return false;
  if (failures.has(run.status)) return true;
  return policy === 'all' && run.status === 'succeeded';
}

export function notificationFor(run: Run, sourceName: string | undefined): { title: string; body: string } {
  const what = sourceName ?? (run.source === 'api' ? 'A prompt' : 'A run');
  const title = run.status === 'succeeded' ? `${what} finished` : `${what} ${run.status === 'timed_out' ? 'timed out' : run.status}`;
  const body = run.error ?? run.prompt.replace(/\s+/g, ' ').slice(0, 120);
  return { title, body };
}
