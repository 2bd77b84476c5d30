// deliveries table: trigger requests a known webhook refused, so a user can see why a sender failed.
import type Database from 'better-sqlite3';

export interface RefusedDelivery {
  id: string;
  webhookId: string;
  receivedAt: string;
  method: string;
  contentType: string | null;
  status: number;
  errorCode: string;
}

export function createDeliveriesRepository(db: Database.Database) {
  const insert = db.prepare(`INSERT INTO deliveries (id, webhook_id, received_at, method, content_type, status, error_code)
    VALUES (@id, @webhookId, @receivedAt, @method, @contentType, @status, @errorCode)`);

  return {
    insertRefused: (delivery: RefusedDelivery): void => void insert.run(delivery),
  };
}

export type DeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
