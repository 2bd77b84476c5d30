// Which finished runs notify, and what the notification says. Pure: the setting (all, failures
// only, attention: failures and needs_attention, none), overridden per automation or webhook, and
// the run decide; a run someone cancelled never notifies, nor a failed one that is retried (its
// last attempt's end does), nor one whose agent had nothing to report.
import type { NotificationPolicy, NotifyOverride, Run } from '../../shared/contract';

const failures = new Set<Run['status']>(['failed', 'timed_out', 'interrupted']);

export function shouldNotify(run: Run, setting: NotificationPolicy, override: NotifyOverride = 'default', retried = false): boolean {
  const policy = override === 'default' ? setting : override;
  if (policy === 'none' || retried) return false;
  if (failures.has(run.status)) return true;
  // A run whose agent reported nothing to report stays quiet, whatever the policy.
  if (run.status !== 'succeeded' || run.outcome === 'nothing_to_report') return false;
  return policy === 'all' || (policy === 'attention' && run.outcome === 'needs_attention');
}

export function notificationFor(run: Run, sourceName: string | undefined): { title: string; body: string } {
  const what = sourceName ?? (run.source === 'api' || run.source === 'chat' ? 'A prompt' : 'A run');
  const attention = run.status === 'succeeded' && run.outcome === 'needs_attention';
  const title = attention ? `${what} needs attention` : run.status === 'succeeded' ? `${what} finished` : `${what} ${run.status === 'timed_out' ? 'timed out' : run.status}`;
  const body = run.error ?? run.summary ?? run.prompt.replace(/\s+/g, ' ').slice(0, 120);
  return { title, body };
}
