// Notifications of approvals and of Steward's notices, beside those of finished runs. A delivery
// is now about one thing (`about`: the run whose end it tells, the approval it asks for, the feed
// line of a notice), once per channel; a run can ask several times, so (channel, run) is no longer
// unique. SQLite cannot change a UNIQUE in place, so the deliveries table is rebuilt, every row
// kept (a row's subject is its run, or itself when it has none); its channels are untouched.
export default /* sql */ `
CREATE TABLE notification_deliveries_v19 (
  id               TEXT PRIMARY KEY,
  channel_id       TEXT NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
  run_id           TEXT REFERENCES runs (id) ON DELETE SET NULL,
  about            TEXT NOT NULL,
  event            TEXT NOT NULL,
  status           TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts         INTEGER NOT NULL DEFAULT 0,
  next_attempt_at  TEXT,
  last_status_code INTEGER,
  last_error       TEXT,
  response_body    TEXT,
  request_headers  TEXT NOT NULL DEFAULT '{}',
  request_body     TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  finished_at      TEXT,
  UNIQUE (channel_id, about)
) STRICT;
INSERT INTO notification_deliveries_v19 (id, channel_id, run_id, about, event, status, attempts, next_attempt_at, last_status_code, last_error, response_body, request_headers, request_body, created_at, finished_at)
  SELECT id, channel_id, run_id, coalesce(run_id, id), event, status, attempts, next_attempt_at, last_status_code, last_error, response_body, request_headers, request_body, created_at, finished_at
  FROM notification_deliveries;

DROP TABLE notification_deliveries;
ALTER TABLE notification_deliveries_v19 RENAME TO notification_deliveries;
CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, id);
CREATE INDEX notification_deliveries_by_run ON notification_deliveries (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX notification_deliveries_pending ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
`;
