// notification_deliveries table <-> delivery records: what was sent to a channel about a run's
// end, an approval, a notice (or as a test), attempt by attempt. At most one per channel and
// subject (`about`), so a run or an approval announced twice notifies once.
import type Database from 'better-sqlite3';
import type { NotificationDelivery } from '../../../../shared/contract';

interface DeliveryRow {
  id: string;
  channel_id: string;
  channel_name: string;
  run_id: string | null;
  event: string;
  status: NotificationDelivery['status'];
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  response_body: string | null;
  request_headers: string;
  request_body: string;
  created_at: string;
  finished_at: string | null;
}

export type NotificationDeliveryRecord = NotificationDelivery & { requestHeaders: Record<string, string> };

export interface NewNotificationDelivery {
  id: string;
  channelId: string;
  runId: string | null;
  /** What it tells of, once per channel: a run's id (its end), an approval's id, a notice's feed line, a test's own id. */
  about: string;
  event: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  createdAt: string;
  /** When the first attempt is due; null for a test, which is sent at once by its caller. */
  nextAttemptAt: string | null;
}

export interface AttemptResult {
  status: NotificationDelivery['status'];
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  responseBody: string | null;
  finishedAt: string | null;
}

function toRecord(row: DeliveryRow): NotificationDeliveryRecord {
  return {
    id: row.id,
    channelId: row.channel_id,
    channelName: row.channel_name,
    runId: row.run_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    responseBody: row.response_body,
    requestHeaders: JSON.parse(row.request_headers) as Record<string, string>,
    requestBody: row.request_body,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

const select = 'SELECT d.*, c.name AS channel_name FROM notification_deliveries d JOIN notification_channels c ON c.id = d.channel_id';

export function createNotificationDeliveriesRepository(db: Database.Database) {
  const insert = db.prepare(`INSERT OR IGNORE INTO notification_deliveries (id, channel_id, run_id, about, event, request_headers, request_body, created_at, next_attempt_at)
    VALUES (@id, @channelId, @runId, @about, @event, @requestHeaders, @requestBody, @createdAt, @nextAttemptAt)`);
  const get = db.prepare<[string], DeliveryRow>(`${select} WHERE d.id = ?`);
  const page = db.prepare<[string, string, number], DeliveryRow>(`${select} WHERE d.channel_id = ? AND d.id < ? ORDER BY d.id DESC LIMIT ?`);
  const forRun = db.prepare<[string], DeliveryRow>(`${select} WHERE d.run_id = ? ORDER BY d.id`);
  const due = db.prepare<[string, number], DeliveryRow>(`${select} WHERE d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at, d.id LIMIT ?`);
  const nextDueAfter = db.prepare<[string], { at: string | null }>("SELECT min(next_attempt_at) AS at FROM notification_deliveries WHERE status = 'pending' AND next_attempt_at > ?");
  // The id of the newest delivery past the count limit: it and everything older (and finished) go.
  const beyond = db.prepare<[string, number], { id: string }>('SELECT id FROM notification_deliveries WHERE channel_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?');
  const removeThrough = db.prepare<[string, string]>("DELETE FROM notification_deliveries WHERE channel_id = ? AND id <= ? AND status != 'pending'");
  const update = db.prepare(`UPDATE notification_deliveries SET status = @status, attempts = @attempts, next_attempt_at = @nextAttemptAt, last_status_code = @lastStatusCode,
    last_error = @lastError, response_body = @responseBody, finished_at = @finishedAt WHERE id = @id`);

  return {
    /** false when the channel already has a delivery about that. */
    insert(record: NewNotificationDelivery): boolean {
      return insert.run({ ...record, requestHeaders: JSON.stringify(record.requestHeaders) }).changes === 1;
    },
    get(id: string): NotificationDeliveryRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    /** Newest first; `before` (an id) pages on to older ones. */
    page: (channelId: string, before: string | undefined, limit: number): NotificationDeliveryRecord[] => page.all(channelId, before ?? '~', limit).map(toRecord),
    forRun: (runId: string): NotificationDeliveryRecord[] => forRun.all(runId).map(toRecord),
    /** Pending deliveries whose next attempt is due at `at`, the most overdue first. */
    due: (at: string, limit: number): NotificationDeliveryRecord[] => due.all(at, limit).map(toRecord),
    /** When the earliest pending attempt after `at` is due; null when none waits. */
    nextDueAfter: (at: string): string | null => nextDueAfter.get(at)?.at ?? null,
    /** Keeps a channel's newest `keep` (and any still pending); returns how many went. */
    keepNewest(channelId: string, keep: number): number {
      const first = beyond.get(channelId, keep);
      return first ? removeThrough.run(channelId, first.id).changes : 0;
    },
    recordAttempt(id: string, result: AttemptResult): void {
      update.run({ id, ...result });
    },
  };
}

export type NotificationDeliveriesRepository = ReturnType<typeof createNotificationDeliveriesRepository>;
