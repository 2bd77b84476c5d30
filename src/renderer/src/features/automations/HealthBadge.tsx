// An automation's health on its card: a badge while it is failing or missing fires, nothing while
// it is healthy.
import type { AutomationHealth } from '../../../../shared/contract';
import { formatTime } from '../../ui/widgets';

export function healthWords(health: AutomationHealth): string | undefined {
  if (health.state === 'failing') return `Failing: ${health.consecutiveFailures} ${health.consecutiveFailures === 1 ? 'run' : 'runs'} in a row`;
  if (health.state === 'missing') return 'Missed fires';
  return undefined;
}

function detail(health: AutomationHealth): string {
  const missed = health.missedLast30Days > 0 ? `${health.missedLast30Days} ${health.missedLast30Days === 1 ? 'fire' : 'fires'} missed or skipped in the last 30 days. ` : '';
  return `${missed}Last fire: ${formatTime(health.lastFireAt)}.`;
}

export function HealthBadge({ health }: { health: AutomationHealth }) {
  const words = healthWords(health);
  if (!words) return null;
  return (
    <span className={`badge health ${health.state}`} title={detail(health)}>
      <span aria-hidden="true">{health.state === 'failing' ? '✕' : '!'} </span>
      {words}
    </span>
  );
}
