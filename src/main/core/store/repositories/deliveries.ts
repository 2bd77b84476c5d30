// deliveries table <-> delivery records: every request to a known webhook, newest first by id.
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import type { DeliveryOutcomeName, RunStatus, deliveryOrigins } from '../../../../shared/contract';

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  receivedAt: string;
  origin: (typeof deliveryOrigins)[number];
  replayOf: string | null;
  method: string;
  contentType: string | null;
  status: number;
  outcome: DeliveryOutcomeName;
  errorCode: string | null;
  message: string | null;
  runId: string | null;
  /** Header names lower-case, credentials already redacted. */
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  /** The body as received; null when it was not read (refused first) or there is none (GET). */
  body: Buffer | null;
  /** The body's size; null when it was not read, so it cannot be replayed. */
  bodyBytes: number | null;
}

interface DeliveryRow {
  id: string;
  webhook_id: string;
  received_at: string;
  origin: DeliveryRecord['origin'];
  replay_of: string | null;
  method: string;
  content_type: string | null;
  status: number;
  outcome: DeliveryOutcomeName;
  error_code: string | null;
  message: string | null;
  run_id: string | null;
  headers: string;
  query: string;
  body: Buffer | null;
  body_bytes: number | null;
}

// The run's status is read from the run itself: a delivery records what Steward did with the
// request, the run goes on changing after it.
const summaryColumns = 'd.id, d.webhook_id, d.received_at, d.origin, d.replay_of, d.method, d.content_type, d.status, d.outcome, d.error_code, d.message, d.run_id, d.body_bytes, r.status AS run_status, r.error AS run_error';
const withRun = 'deliveries d LEFT JOIN runs r ON r.id = d.run_id';

export type DeliverySummaryRecord = Omit<DeliveryRecord, 'headers' | 'query' | 'body'> & {
  /** The status of its run now; null when it has none or the run is gone. */
  runStatus: RunStatus | null;
  /** Its run's error, for why it was cancelled. */
  runError: string | null;
};

type SummaryRow = Omit<DeliveryRow, 'headers' | 'query' | 'body'> & { run_status: RunStatus | null; run_error: string | null };

function toSummary(row: SummaryRow): DeliverySummaryRecord {
  return {
    id: row.id,
    webhookId: row.webhook_id,
    receivedAt: row.received_at,
    origin: row.origin,
    replayOf: row.replay_of,
    method: row.method,
    contentType: row.content_type,
    status: row.status,
    outcome: row.outcome,
    errorCode: row.error_code,
    message: row.message,
    runId: row.run_id,
    bodyBytes: row.body_bytes,
    runStatus: row.run_status,
    runError: row.run_error,
  };
}

export function createDeliveriesRepository(db: Database.Database, hooks: CommitHooks) {
  const insert = db.prepare(`INSERT INTO deliveries (id, webhook_id, received_at, origin, replay_of, method, content_type, status, outcome, error_code, message, run_id, headers, query, body, body_bytes)
    VALUES (@id, @webhookId, @receivedAt, @origin, @replayOf, @method, @contentType, @status, @outcome, @errorCode, @message, @runId, @headers, @query, @body, @bodyBytes)`);
  const page = db.prepare<[string, string, number], SummaryRow>(`SELECT ${summaryColumns} FROM ${withRun} WHERE d.webhook_id = ? AND d.id < ? ORDER BY d.id DESC LIMIT ?`);
  const get = db.prepare<[string], DeliveryRow & { run_status: RunStatus | null; run_error: string | null }>(`SELECT d.*, r.status AS run_status, r.error AS run_error FROM ${withRun} WHERE d.id = ?`);
  // The id of the newest delivery past the count limit: it and everything older go.
  const beyond = db.prepare<[string, number], { id: string }>('SELECT id FROM deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?');
  const removeThrough = db.prepare<[string, string]>('DELETE FROM deliveries WHERE webhook_id = ? AND id <= ?');
  // Hourly, so a scan: an index on the time would cost every insert more than it saves here.
  const removeBefore = db.prepare<[string]>('DELETE FROM deliveries WHERE received_at < ?');
  const webhookIds = db.prepare<[], { webhook_id: string }>('SELECT DISTINCT webhook_id FROM deliveries');

  return {
    insert(record: DeliveryRecord): void {
      insert.run({ ...record, headers: JSON.stringify(record.headers), query: JSON.stringify(record.query) });
      // Refused and duplicate requests start no run: this is how the open list hears of them.
      if (hooks.wanted) hooks.announce({ type: 'changed', resource: 'delivery', id: record.webhookId });
    },
    /** Newest first; `before` (an id) pages on to older ones. */
    page(webhookId: string, before: string | undefined, limit: number): DeliverySummaryRecord[] {
      // Every id sorts below '~': no `before` starts at the newest.
      return page.all(webhookId, before ?? '~', limit).map(toSummary);
    },
    get(id: string): (DeliveryRecord & Pick<DeliverySummaryRecord, 'runStatus' | 'runError'>) | undefined {
      const row = get.get(id);
      if (!row) return undefined;
      const { headers, query, body } = row;
      return {
        ...toSummary(row),
        headers: JSON.parse(headers) as DeliveryRecord['headers'],
        query: JSON.parse(query) as DeliveryRecord['query'],
        body,
      };
    },
    /** Keeps the newest `keep` of one webhook; returns how many went. */
    keepNewest(webhookId: string, keep: number): number {
      const first = beyond.get(webhookId, keep);
      return first ? removeThrough.run(webhookId, first.id).changes : 0;
    },
    removeBefore: (receivedAt: string): number => removeBefore.run(receivedAt).changes,
    webhookIds: (): string[] => webhookIds.all().map((row) => row.webhook_id),
  };
}

export type DeliveriesRepository = ReturnType<typeof createDeliveriesRepository>;
