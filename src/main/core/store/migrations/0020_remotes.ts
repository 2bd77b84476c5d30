// Remote Stewards and the instances they have, as last seen. Their activity lines are kept in the
// same activity log as local ones (the remote's own line numbers), so the feed, its cursors, the
// live stream and retention treat them alike: the log no longer references the instances table,
// and a trigger on each of the two instance tables deletes a gone instance's lines instead.
export default /* sql */ `
CREATE TABLE remotes (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  url         TEXT NOT NULL UNIQUE,
  api_key_ref TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
) STRICT;

CREATE TABLE remote_instances (
  id         TEXT PRIMARY KEY,
  remote_id  TEXT NOT NULL REFERENCES remotes (id) ON DELETE CASCADE,
  instance   TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX remote_instances_by_remote ON remote_instances (remote_id);

CREATE TABLE activity_heads_new (
  instance_id     TEXT PRIMARY KEY,
  last_line       INTEGER NOT NULL,
  trimmed_through INTEGER NOT NULL DEFAULT 0
) STRICT, WITHOUT ROWID;
INSERT INTO activity_heads_new (instance_id, last_line, trimmed_through) SELECT instance_id, last_line, trimmed_through FROM activity_heads;
DROP TABLE activity_heads;
ALTER TABLE activity_heads_new RENAME TO activity_heads;

CREATE TABLE activity_new (
  instance_id  TEXT NOT NULL,
  line         INTEGER NOT NULL,
  run_id       TEXT,
  kind         TEXT NOT NULL,
  label        TEXT NOT NULL,
  display_text TEXT NOT NULL,
  raw          TEXT NOT NULL,
  timestamp    TEXT NOT NULL,
  seq          INTEGER,
  PRIMARY KEY (instance_id, line)
) STRICT, WITHOUT ROWID;
INSERT INTO activity_new (instance_id, line, run_id, kind, label, display_text, raw, timestamp, seq)
  SELECT instance_id, line, run_id, kind, label, display_text, raw, timestamp, seq FROM activity;
DROP TABLE activity;
ALTER TABLE activity_new RENAME TO activity;
CREATE INDEX activity_by_time ON activity (timestamp);
CREATE UNIQUE INDEX activity_by_seq ON activity (seq);

CREATE TRIGGER instance_activity_gone AFTER DELETE ON instances BEGIN
  DELETE FROM activity WHERE instance_id = old.id;
  DELETE FROM activity_heads WHERE instance_id = old.id;
END;
CREATE TRIGGER remote_instance_activity_gone AFTER DELETE ON remote_instances BEGIN
  DELETE FROM activity WHERE instance_id = old.id;
  DELETE FROM activity_heads WHERE instance_id = old.id;
END;
`;
