// Webhooks for real senders: per-webhook payload limit, filter, fencing, sender preset and
// idempotency key; deliveries become the log of every request (accepted, skipped or refused) with
// its redacted headers, query and body; a run made by a replay names the delivery it replayed.
// SQLite cannot drop NOT NULL from error_code, so the deliveries table is rebuilt.
export default /* sql */ `
ALTER TABLE webhooks ADD COLUMN sender TEXT NOT NULL DEFAULT 'generic';
ALTER TABLE webhooks ADD COLUMN max_payload_bytes INTEGER NOT NULL DEFAULT 10240;
ALTER TABLE webhooks ADD COLUMN filter TEXT NOT NULL DEFAULT '[]';
ALTER TABLE webhooks ADD COLUMN fence_payload INTEGER NOT NULL DEFAULT 0;
ALTER TABLE webhooks ADD COLUMN idempotency_key TEXT;
ALTER TABLE runs ADD COLUMN replay_of TEXT;

CREATE TABLE deliveries_v10 (
  id           TEXT PRIMARY KEY,
  webhook_id   TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  received_at  TEXT NOT NULL,
  origin       TEXT NOT NULL DEFAULT 'sender',
  replay_of    TEXT,
  method       TEXT NOT NULL,
  content_type TEXT,
  status       INTEGER NOT NULL,
  outcome      TEXT NOT NULL,
  error_code   TEXT,
  message      TEXT,
  run_id       TEXT,
  headers      TEXT NOT NULL DEFAULT '{}',
  query        TEXT NOT NULL DEFAULT '{}',
  body         BLOB,
  body_bytes   INTEGER
) STRICT;
INSERT INTO deliveries_v10 (id, webhook_id, received_at, method, content_type, status, outcome, error_code)
  SELECT id, webhook_id, received_at, method, content_type, status, 'refused', error_code FROM deliveries;
DROP TABLE deliveries;
ALTER TABLE deliveries_v10 RENAME TO deliveries;
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id, id);
`;
