// webhooks table <-> webhook records. Triggers find a webhook by the hash of its token.
import type Database from 'better-sqlite3';
import type { CommitHooks } from '../commit-hooks';
import { ApprovalPolicy, type FilterCondition, type Memory, type NotifyOverride, RetryPolicy, type Sender, type SignatureScheme } from '../../../../shared/contract';

interface WebhookRow {
  id: string;
  name: string;
  prompt_template: string;
  token: string;
  enabled: number;
  notify: NotifyOverride;
  memory: Memory;
  retry: string;
  approval: string;
  signature_scheme: SignatureScheme | null;
  signature_secret: string | null;
  sender: Sender;
  max_payload_bytes: number;
  filter: string;
  fence_payload: number;
  idempotency_key: string | null;
  instance_id: string;
  thread_id: string;
  created_by_run_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookRecord {
  id: string;
  name: string;
  promptTemplate: string;
  token: string;
  enabled: boolean;
  notify: NotifyOverride;
  memory: Memory;
  retry: RetryPolicy;
  approval: ApprovalPolicy;
  /** The signature check, with its secret sealed by the secret box; null when there is none. */
  signature: { scheme: SignatureScheme; sealedSecret: string } | null;
  sender: Sender;
  maxPayloadBytes: number;
  filter: FilterCondition[];
  fencePayload: boolean;
  /** A template of fields and headers the idempotency key is made of; null: the seed's headers. */
  idempotencyKey: string | null;
  instanceId: string;
  threadId: string;
  /** The run whose agent made it: its runs are that run's children (loop guard). */
  createdByRunId: string | null;
  createdAt: string;
  updatedAt: string;
}

function toRecord(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    name: row.name,
    promptTemplate: row.prompt_template,
    token: row.token,
    enabled: row.enabled === 1,
    notify: row.notify,
    memory: row.memory,
    retry: RetryPolicy.parse(JSON.parse(row.retry)),
    approval: ApprovalPolicy.parse(JSON.parse(row.approval)),
    signature: row.signature_scheme && row.signature_secret ? { scheme: row.signature_scheme, sealedSecret: row.signature_secret } : null,
    sender: row.sender,
    maxPayloadBytes: row.max_payload_bytes,
    filter: JSON.parse(row.filter) as FilterCondition[],
    fencePayload: row.fence_payload === 1,
    idempotencyKey: row.idempotency_key,
    instanceId: row.instance_id,
    threadId: row.thread_id,
    createdByRunId: row.created_by_run_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

const columns =
  'id, name, prompt_template, token, enabled, notify, memory, retry, approval, signature_scheme, signature_secret, sender, max_payload_bytes, filter, fence_payload, idempotency_key, instance_id, thread_id, created_by_run_id, created_at, updated_at';

export function createWebhooksRepository(db: Database.Database, hooks: CommitHooks) {
  const changed = (id: string) => {
    if (hooks.wanted) hooks.announce({ type: 'changed', resource: 'webhook', id });
  };
  const list = db.prepare<[], WebhookRow>(`SELECT ${columns} FROM webhooks ORDER BY id`);
  const get = db.prepare<[string], WebhookRow>(`SELECT ${columns} FROM webhooks WHERE id = ?`);
  const byTokenHash = db.prepare<[string], WebhookRow>(`SELECT ${columns} FROM webhooks WHERE token_hash = ?`);
  // An upsert that updates in place: INSERT OR REPLACE would delete the row first and cascade
  // that delete to everything referencing the webhook.
  const upsert = db.prepare(`INSERT INTO webhooks (${columns}, token_hash)
    VALUES (@id, @name, @promptTemplate, @token, @enabled, @notify, @memory, @retry, @approval, @signatureScheme, @signatureSecret, @sender, @maxPayloadBytes, @filter, @fencePayload,
      @idempotencyKey, @instanceId, @threadId, @createdByRunId, @createdAt, @updatedAt, @tokenHash)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, prompt_template = excluded.prompt_template, token = excluded.token,
      token_hash = excluded.token_hash, enabled = excluded.enabled, notify = excluded.notify, memory = excluded.memory, retry = excluded.retry, approval = excluded.approval, signature_scheme = excluded.signature_scheme,
      signature_secret = excluded.signature_secret, sender = excluded.sender, max_payload_bytes = excluded.max_payload_bytes, filter = excluded.filter,
      fence_payload = excluded.fence_payload, idempotency_key = excluded.idempotency_key, instance_id = excluded.instance_id, updated_at = excluded.updated_at`);
  const remove = db.prepare<[string]>('DELETE FROM webhooks WHERE id = ?');

  return {
    list: (): WebhookRecord[] => list.all().map(toRecord),
    get(id: string): WebhookRecord | undefined {
      const row = get.get(id);
      return row && toRecord(row);
    },
    findByTokenHash(tokenHash: string): WebhookRecord | undefined {
      const row = byTokenHash.get(tokenHash);
      return row && toRecord(row);
    },
    save({ signature, ...record }: WebhookRecord, tokenHash: string): void {
      upsert.run({
        ...record,
        enabled: record.enabled ? 1 : 0,
        retry: JSON.stringify(record.retry),
        approval: JSON.stringify(record.approval),
        filter: JSON.stringify(record.filter),
        fencePayload: record.fencePayload ? 1 : 0,
        signatureScheme: signature?.scheme ?? null,
        signatureSecret: signature?.sealedSecret ?? null,
        tokenHash,
      });
      changed(record.id);
    },
    delete(id: string): void {
      remove.run(id);
      changed(id);
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
