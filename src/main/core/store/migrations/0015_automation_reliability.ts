// Automations one can leave alone: every due fire recorded, why a run failed and what retried it,
// what it cost, what the agent said came of it, retry and budget policies, chains, and the
// alarms already raised (so each is raised once).
export default /* sql */ `
ALTER TABLE runs ADD COLUMN error_class TEXT;
ALTER TABLE runs ADD COLUMN retry_of TEXT;
ALTER TABLE runs ADD COLUMN start_after TEXT;
ALTER TABLE runs ADD COLUMN outcome TEXT;
ALTER TABLE runs ADD COLUMN summary TEXT;
ALTER TABLE runs ADD COLUMN cost_usd REAL;
ALTER TABLE runs ADD COLUMN input_tokens INTEGER;
ALTER TABLE runs ADD COLUMN output_tokens INTEGER;
CREATE INDEX runs_by_instance_created ON runs (instance_id, created_at);

ALTER TABLE automations ADD COLUMN trigger_after TEXT;
ALTER TABLE automations ADD COLUMN retry TEXT NOT NULL DEFAULT '{"attempts":0,"backoffSeconds":30,"on":["rate_limit","overloaded","network","timeout"]}';
ALTER TABLE automations ADD COLUMN budget TEXT NOT NULL DEFAULT '{}';
ALTER TABLE automations ADD COLUMN alarm TEXT;
ALTER TABLE webhooks ADD COLUMN retry TEXT NOT NULL DEFAULT '{"attempts":0,"backoffSeconds":30,"on":["rate_limit","overloaded","network","timeout"]}';
ALTER TABLE instances ADD COLUMN budget TEXT NOT NULL DEFAULT '{}';

CREATE TABLE fires (
  automation_id TEXT NOT NULL,
  due_at        TEXT NOT NULL,
  state         TEXT NOT NULL,
  reason        TEXT,
  detail        TEXT,
  run_id        TEXT,
  recorded_at   TEXT NOT NULL,
  PRIMARY KEY (automation_id, due_at)
) STRICT, WITHOUT ROWID;
CREATE INDEX fires_by_due ON fires (due_at, automation_id);

CREATE TABLE budget_notices (
  owner_id TEXT NOT NULL,
  period   TEXT NOT NULL,
  sent_at  TEXT NOT NULL,
  PRIMARY KEY (owner_id, period)
) STRICT, WITHOUT ROWID;
`;
