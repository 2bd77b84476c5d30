// What every service is given: the store, the clock, the logger and where the data lives.
import type { Logger } from '../logger';
import type { NotificationTiming } from './notification-dispatcher';
import type { RemoteTiming } from '../remotes/follower';
import type { Clock } from '../scheduler/clock';
import type { Store } from '../store';
import type { TriggerListener } from '../tunnel/tunnel';
import type { EventKind } from '../../../shared/contract';
import type { SourceKind } from '../sources/source-kind';

export interface ServiceContext {
  store: Store;
  clock: Clock;
  /** clock.now, for brevity. */
  now: () => Date;
  logger: Logger;
  dataDir: string;
  /** The local HTTP base, e.g. http://127.0.0.1:7321; trigger URLs are built on it. */
  baseUrl: () => string;
  /** Starts the trigger-only HTTP listener the tunnel forwards to (the core provides it). */
  startTriggerListener?: () => Promise<TriggerListener>;
  /** Notification retry waits and attempt time limit; tests shorten them. */
  notificationTiming?: NotificationTiming;
  /** How remotes are retried and checked; tests shorten it. */
  remoteTiming?: Partial<RemoteTiming> | undefined;
  /** The wait before an event source's next attempt after `failures` failed ones; tests shorten it. */
  sourceBackoffMs?: ((failures: number) => number) | undefined;
  /** The event sources' code; tests give scripted kinds. */
  loadSourceKind?: ((kind: EventKind) => Promise<SourceKind<unknown>>) | undefined;
}

export function isoNow(context: Pick<ServiceContext, 'now'>): string {
  return context.now().toISOString();
}
