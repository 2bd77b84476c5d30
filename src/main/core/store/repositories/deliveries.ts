// deliveries table: the request log of each webhook, and the memory behind Idempotency-Key.
import type Database from 'better-sqlite3';

export interface NewDelivery {
  id: string;
  webhookId: string;
  receivedAt: string;
  method: string;
  contentType: string | null;
  bytes: number;
  status: number;
  runId: string | null;
  idempotencyKey: string | null;
}

export function createDeliveriesRepository(db: Database.Database) {
  const insert = db.prepare(`INSERT INTO deliveries (id, webhook_id, received_at, method, content_type, bytes, status, run_id, idempotency_key)
    VALUES (@id, @webhookId, @receivedAt, @method, @contentType, @bytes, @status, @runId, @idempotencyKey)`);
  const byKey = db.prepare<[string, string, string], { run_id: string }>(
    `SELECT run_id FROM deliveries
     WHERE webhook_id = ? AND idempotency_key = ? AND received_at >= ? AND run_id IS NOT NULL
     ORDER BY received_at LIMIT 1`,
  );

  return {
    insert: (delivery: NewDelivery): void => void insert.run(delivery),
    /** The run an earlier delivery with this key started, if it came at or after `since`. */
    runForKey: (webhookId: string, key: string, since: string): string | undefined => byKey.get(webhookId, key, since)?.run_id,
  };
}

export type DeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
