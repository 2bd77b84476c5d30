// Sends pending notification deliveries: each attempt within a time limit, retried with backoff
// (10 s, 1 min, 5 min, 30 min, 2 h by default: 6 attempts), every attempt written to its record;
// pending ones found at start resume. A delivery that fails for good leaves one `system` line on
// its run's instance. Retry times are wall-clock (plain timers, cleared by close), not the core's
// clock: they pace network I/O, and Standard Webhooks timestamps must be real time anyway.
import type { Logger } from '../logger';
import type { SecretBox } from '../secrets';
import type { Store } from '../store';
import type { ChannelWithLast } from '../store/repositories/notification-channels';
import type { AttemptResult, NotificationDeliveryRecord } from '../store/repositories/notification-deliveries';
import type { AttemptOutcome } from './notification-sender';

type Sender = typeof import('./notification-sender');
let sender: Promise<Sender> | undefined;
/** The sending code loads with the first notification sent, not with every start. */
const loadSender = (): Promise<Sender> => (sender ??= import('./notification-sender'));

export interface NotificationTiming {
  /** The waits between attempts; their count plus one is the number of attempts. */
  retryDelaysMs: number[];
  attemptTimeoutMs: number;
}

export const defaultNotificationTiming: NotificationTiming = {
  retryDelaysMs: [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000],
  attemptTimeoutMs: 10_000,
};

const maxInFlight = 8;
// setTimeout's limit is about 24.8 days; a far-off attempt is looked at again sooner, harmlessly.
const maxTimerMs = 60 * 60_000;

interface DispatcherDeps {
  store: Store;
  logger: Logger;
  box: SecretBox;
  revealSecret: (name: string) => string | undefined;
  /** The core's clock, for the records' timestamps. */
  now: () => Date;
  timing: NotificationTiming;
}

export function createNotificationDispatcher(deps: DispatcherDeps) {
  const { store, logger, box, timing } = deps;
  const maxAttempts = timing.retryDelaysMs.length + 1;
  const inFlight = new Map<string, Promise<void>>();
  const closing = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let started = false;

  const wallIso = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString();

  /** The request as it goes out this time: the channel's URL and credentials, a fresh signature. */
  async function attempt(delivery: NotificationDeliveryRecord, channel: ChannelWithLast): Promise<AttemptOutcome> {
    const { sendAttempt, standardHeaders } = await loadSender();
    const failed = (error: string): AttemptOutcome => ({ ok: false, statusCode: null, error, responseBody: null, aborted: false });
    const headers = { ...delivery.requestHeaders };
    let url: string;
    try {
      url = channel.sealedUrl === null ? channel.url : box.open(channel.sealedUrl);
      if (channel.kind === 'webhook' && channel.sealedSecret !== null) {
        Object.assign(headers, standardHeaders(box.open(channel.sealedSecret), delivery.id, Date.now(), delivery.requestBody));
      }
    } catch (error) {
      return failed((error as Error).message);
    }
    if (channel.kind === 'ntfy' && channel.tokenRef !== null) {
      const token = deps.revealSecret(channel.tokenRef);
      if (token === undefined) return failed(`The secret ${channel.tokenRef} (the ntfy token) is not stored.`);
      headers.authorization = `Bearer ${token}`;
    }
    return sendAttempt({ url, headers, body: delivery.requestBody }, { timeoutMs: timing.attemptTimeoutMs, closing: closing.signal });
  }

  function resultOf(delivery: NotificationDeliveryRecord, outcome: AttemptOutcome, retry: boolean): AttemptResult {
    const attempts = delivery.attempts + 1;
    const finishedAt = deps.now().toISOString();
    const base = { attempts, lastStatusCode: outcome.statusCode, lastError: outcome.error, responseBody: outcome.responseBody };
    if (outcome.ok) return { ...base, status: 'delivered', nextAttemptAt: null, finishedAt };
    if (retry && attempts < maxAttempts) return { ...base, status: 'pending', nextAttemptAt: wallIso(timing.retryDelaysMs[attempts - 1]), finishedAt: null };
    return { ...base, status: 'failed', nextAttemptAt: null, finishedAt };
  }

  /** Writes the attempt; a final failure also tells the run's instance. */
  function record(delivery: NotificationDeliveryRecord, result: AttemptResult): void {
    store.transaction(() => {
      if (!store.notificationDeliveries.get(delivery.id)) return; // its channel was deleted meanwhile
      store.notificationDeliveries.recordAttempt(delivery.id, result);
      const run = result.status === 'failed' && delivery.runId ? store.runs.get(delivery.runId) : undefined;
      if (!run || !store.instances.get(run.instanceId)) return;
      const times = result.attempts === 1 ? '1 attempt' : `${result.attempts} attempts`;
      store.activity.append({
        instanceId: run.instanceId,
        runId: run.id,
        kind: 'system',
        label: '',
        displayText: `Notification to ${delivery.channelName} failed after ${times}: ${result.lastError ?? 'unknown reason'}`.slice(0, 300),
        raw: JSON.stringify({ type: 'notification.failed', deliveryId: delivery.id, channelId: delivery.channelId, runId: run.id, attempts: result.attempts, error: result.lastError }),
        timestamp: deps.now().toISOString(),
      });
    });
  }

  /** One attempt at one delivery, recorded; `retry: false` makes a failure final (a test). */
  async function deliver(id: string, retry: boolean): Promise<void> {
    const delivery = store.notificationDeliveries.get(id);
    if (!delivery || delivery.status !== 'pending') return;
    const channel = store.notificationChannels.get(delivery.channelId);
    if (!channel) return;
    const outcome = await attempt(delivery, channel);
    if (outcome.aborted) return; // stays pending: the next start resumes it
    try {
      record(delivery, resultOf(delivery, outcome, retry));
    } catch (error) {
      logger.error({ err: error, deliveryId: id }, 'could not record a notification attempt');
    }
  }

  /** Waits for the first delivery due after `now`: the same instant the due ones were taken at, so none falls between. */
  function schedule(now: string): void {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (closing.signal.aborted || !started) return;
    const next = store.notificationDeliveries.nextDueAfter(now);
    if (next === null) return;
    timer = setTimeout(pump, Math.min(maxTimerMs, Math.max(0, Date.parse(next) - Date.now()))).unref();
  }

  /** Starts every due delivery not already under way (a few at a time), then waits for the next. */
  function pump(): void {
    if (closing.signal.aborted || !started) return;
    try {
      const now = wallIso();
      const due = store.notificationDeliveries.due(now, maxInFlight * 2).filter((delivery) => !inFlight.has(delivery.id));
      for (const delivery of due.slice(0, Math.max(0, maxInFlight - inFlight.size))) {
        const work = deliver(delivery.id, true)
          .catch((error: unknown) => logger.error({ err: error, deliveryId: delivery.id }, 'notification delivery failed unexpectedly'))
          .finally(() => {
            inFlight.delete(delivery.id);
            pump();
          });
        inFlight.set(delivery.id, work);
      }
      schedule(now);
    } catch (error) {
      logger.error({ err: error }, 'could not look for notifications to send');
    }
  }

  return {
    /** Resumes what was pending and sends from now on. */
    start(): void {
      started = true;
      pump();
    },
    /** New deliveries were written: send the due ones. */
    pump,
    /** A test: one attempt now, final whatever comes of it. */
    async sendOnce(id: string): Promise<void> {
      if (closing.signal.aborted) return;
      const work = deliver(id, false);
      inFlight.set(id, work);
      try {
        await work;
      } finally {
        inFlight.delete(id);
      }
    },
    /** Due time of the first attempt of a delivery made now. */
    firstAttemptAt: (): string => wallIso(),
    /** Stops the timer and aborts attempts under way (they stay pending). */
    async close(): Promise<void> {
      closing.abort();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

export type NotificationDispatcher = ReturnType<typeof createNotificationDispatcher>;
