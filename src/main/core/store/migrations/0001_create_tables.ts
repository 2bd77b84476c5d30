// Every table of DESIGN §3. Forward only: never edit after release, add a new migration instead.
export default /* sql */ `
CREATE TABLE instances (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  slug          TEXT NOT NULL UNIQUE,
  status        TEXT NOT NULL,
  status_reason TEXT,
  image_tag     TEXT NOT NULL DEFAULT '',
  avatar_url    TEXT NOT NULL,
  agent         TEXT NOT NULL,
  workspace_dir TEXT NOT NULL,
  is_default    INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX instances_one_default ON instances (is_default) WHERE is_default = 1;

CREATE TABLE threads (
  id         TEXT PRIMARY KEY,
  owner_type TEXT NOT NULL,
  owner_id   TEXT,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE automations (
  id              TEXT PRIMARY KEY,
  name            TEXT NOT NULL,
  prompt          TEXT NOT NULL,
  cron_expression TEXT NOT NULL,
  timezone        TEXT NOT NULL,
  enabled         INTEGER NOT NULL,
  instance_id     TEXT NOT NULL REFERENCES instances (id),
  thread_id       TEXT NOT NULL REFERENCES threads (id),
  catch_up        TEXT NOT NULL DEFAULT 'latest',
  last_fire_at    TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL
) STRICT;

CREATE TABLE webhooks (
  id               TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  prompt_template  TEXT NOT NULL,
  token            TEXT NOT NULL,
  token_hash       TEXT NOT NULL UNIQUE,
  enabled          INTEGER NOT NULL,
  instance_id      TEXT NOT NULL REFERENCES instances (id),
  thread_id        TEXT NOT NULL REFERENCES threads (id),
  signature_scheme TEXT,
  signature_secret TEXT,
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL
) STRICT;

CREATE TABLE runs (
  id            TEXT PRIMARY KEY,
  instance_id   TEXT NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  thread_id     TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
  source        TEXT NOT NULL,
  source_id     TEXT,
  status        TEXT NOT NULL,
  prompt        TEXT NOT NULL,
  error         TEXT,
  scheduled_for TEXT,
  attempt       INTEGER NOT NULL DEFAULT 1,
  idempotency_key TEXT,
  created_at    TEXT NOT NULL,
  started_at    TEXT,
  finished_at   TEXT
) STRICT;
CREATE INDEX runs_by_source ON runs (source_id, created_at);
CREATE INDEX runs_by_status ON runs (status, created_at);
CREATE INDEX runs_by_thread ON runs (thread_id);
CREATE INDEX runs_by_idempotency_key ON runs (source_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE messages (
  seq        INTEGER PRIMARY KEY,
  thread_id  TEXT NOT NULL REFERENCES threads (id) ON DELETE CASCADE,
  run_id     TEXT REFERENCES runs (id) ON DELETE CASCADE,
  role       TEXT NOT NULL,
  content    TEXT NOT NULL,
  data       TEXT,
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX messages_by_thread ON messages (thread_id, seq);
CREATE INDEX messages_by_run ON messages (run_id);

-- The last line number per instance, in a narrow row of its own: taking a number rewrites only it.
CREATE TABLE activity_heads (
  instance_id TEXT PRIMARY KEY REFERENCES instances (id) ON DELETE CASCADE,
  last_line   INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE activity (
  instance_id  TEXT NOT NULL REFERENCES instances (id) ON DELETE CASCADE,
  line         INTEGER NOT NULL,
  run_id       TEXT,
  kind         TEXT NOT NULL,
  label        TEXT NOT NULL,
  display_text TEXT NOT NULL,
  raw          TEXT NOT NULL,
  timestamp    TEXT NOT NULL,
  PRIMARY KEY (instance_id, line)
) STRICT, WITHOUT ROWID;
CREATE INDEX activity_by_time ON activity (timestamp);

CREATE TABLE api_keys (
  id           TEXT PRIMARY KEY,
  name         TEXT NOT NULL,
  preview      TEXT NOT NULL,
  hash         TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL,
  last_used_at TEXT,
  revoked_at   TEXT
) STRICT;

-- Trigger requests a webhook refused (disabled, too large, not JSON...). Accepted ones are its runs.
CREATE TABLE deliveries (
  id           TEXT PRIMARY KEY,
  webhook_id   TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  received_at  TEXT NOT NULL,
  method       TEXT NOT NULL,
  content_type TEXT,
  status       INTEGER NOT NULL,
  error_code   TEXT NOT NULL
) STRICT;
CREATE INDEX deliveries_by_webhook ON deliveries (webhook_id, received_at);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
`;
