// Approvals (a person in the loop): each with its two single-use decision link tokens; the
// before-run approval policy of automations and webhooks; the permissions mode of instances.
export default /* sql */ `
CREATE TABLE approvals (
  id           TEXT PRIMARY KEY,
  run_id       TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  instance_id  TEXT NOT NULL,
  kind         TEXT NOT NULL,
  title        TEXT NOT NULL,
  detail       TEXT NOT NULL,
  status       TEXT NOT NULL DEFAULT 'pending',
  decided_by   TEXT,
  answer       TEXT,
  note         TEXT,
  allow_token  TEXT NOT NULL UNIQUE,
  deny_token   TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL,
  expires_at   TEXT NOT NULL,
  decided_at   TEXT
) STRICT;
CREATE INDEX approvals_pending ON approvals (expires_at) WHERE status = 'pending';
CREATE INDEX approvals_by_run ON approvals (run_id);

ALTER TABLE automations ADD COLUMN approval TEXT NOT NULL DEFAULT '{"mode":"none","timeoutSeconds":3600}';
ALTER TABLE webhooks ADD COLUMN approval TEXT NOT NULL DEFAULT '{"mode":"none","timeoutSeconds":3600}';
ALTER TABLE instances ADD COLUMN permissions TEXT NOT NULL DEFAULT '{"mode":"bypass","timeoutSeconds":600}';
`;
