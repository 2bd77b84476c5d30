// Notification channels take `on = 'attention'` (failures and runs whose agent reported
// needs_attention), which 0013's CHECK refused. SQLite cannot change a CHECK in place: both channel
// tables are rebuilt, the new deliveries referring to the new channels (the rename carries the
// reference along), so that dropping the old channels cascades to nothing.
export default /* sql */ `
CREATE TABLE notification_channels_new (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('webhook', 'ntfy', 'slack', 'discord')),
  url            TEXT NOT NULL,
  sealed_url     TEXT,
  sealed_secret  TEXT,
  token_ref      TEXT,
  enabled        INTEGER NOT NULL DEFAULT 1,
  notify_on      TEXT NOT NULL DEFAULT 'failures' CHECK (notify_on IN ('failures', 'successes', 'attention', 'all')),
  sources        TEXT NOT NULL DEFAULT '[]',
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
) STRICT;
INSERT INTO notification_channels_new SELECT * FROM notification_channels;

CREATE TABLE notification_deliveries_new (
  id               TEXT PRIMARY KEY,
  channel_id       TEXT NOT NULL REFERENCES notification_channels_new (id) ON DELETE CASCADE,
  run_id           TEXT REFERENCES runs (id) ON DELETE SET NULL,
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
  UNIQUE (channel_id, run_id)
) STRICT;
INSERT INTO notification_deliveries_new SELECT * FROM notification_deliveries;

DROP TABLE notification_deliveries;
DROP TABLE notification_channels;
ALTER TABLE notification_channels_new RENAME TO notification_channels;
ALTER TABLE notification_deliveries_new RENAME TO notification_deliveries;
CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, id);
CREATE INDEX notification_deliveries_by_run ON notification_deliveries (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX notification_deliveries_pending ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
`;
