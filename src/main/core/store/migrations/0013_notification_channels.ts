// Notification channels (where run notifications go: a signed webhook, ntfy, Slack, Discord) and
// the durable log of what each was sent: one delivery per channel and run, retried until it is
// delivered or has failed for good. `url` is what the API shows (shortened for Slack and Discord,
// whose URLs are secrets); the URL itself and the signing secret are sealed by the secret box.
export default /* sql */ `
CREATE TABLE notification_channels (
  id             TEXT PRIMARY KEY,
  name           TEXT NOT NULL,
  kind           TEXT NOT NULL CHECK (kind IN ('webhook', 'ntfy', 'slack', 'discord')),
  url            TEXT NOT NULL,
  sealed_url     TEXT,
  sealed_secret  TEXT,
  token_ref      TEXT,
  enabled        INTEGER NOT NULL DEFAULT 1,
  notify_on      TEXT NOT NULL DEFAULT 'failures' CHECK (notify_on IN ('failures', 'successes', 'all')),
  sources        TEXT NOT NULL DEFAULT '[]',
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
) STRICT;

CREATE TABLE notification_deliveries (
  id               TEXT PRIMARY KEY,
  channel_id       TEXT NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
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
CREATE INDEX notification_deliveries_by_channel ON notification_deliveries (channel_id, id);
CREATE INDEX notification_deliveries_by_run ON notification_deliveries (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX notification_deliveries_pending ON notification_deliveries (next_attempt_at) WHERE status = 'pending';
`;
