// The notifications a run caused, on its page: one line, each channel with its delivery's status.
// Asked again while one is still being sent, and when the run's status changes.
import { useEffect } from 'react';
import type { Run } from '../../../../shared/contract';
import { useApp } from '../../lib/app-context';
import { deliveryOutcome } from '../settings/NotificationChannels';
import { Badge } from '../../ui/widgets';

const pollMs = 2_000;

export function RunNotifications({ run }: { run: Run }) {
  const { runNotifications, loadRunNotifications } = useApp();
  const deliveries = runNotifications[run.id];
  const pending = deliveries?.some((delivery) => delivery.status === 'pending') ?? false;
  useEffect(() => {
    void loadRunNotifications(run.id).catch(() => undefined);
  }, [run.id, run.status, loadRunNotifications]);
  useEffect(() => {
    if (!pending) return undefined;
    const timer = setInterval(() => void loadRunNotifications(run.id).catch(() => undefined), pollMs);
    return () => clearInterval(timer);
  }, [pending, run.id, loadRunNotifications]);
  if (!deliveries || deliveries.length === 0) return null;
  return (
    <div className="row wrap" aria-label="Notifications">
      <strong>Notifications</strong>
      {deliveries.map((delivery) => (
        <span key={delivery.id} title={deliveryOutcome(delivery)}>
          {delivery.channelName} <Badge status={delivery.status} />
          {delivery.status !== 'delivered' && delivery.lastError && <span className="hint"> {delivery.lastError}</span>}
        </span>
      ))}
    </div>
  );
}
