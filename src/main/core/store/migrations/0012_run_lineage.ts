// Agents that manage Steward: a run started by a run records its parent and how deep it is; an
// automation or webhook an agent made records the run that made it (its runs are that run's
// children); an API key may belong to one run, scoped to that run's instance, and ends with it.
export default /* sql */ `
ALTER TABLE runs ADD COLUMN parent_run_id TEXT;
ALTER TABLE runs ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE automations ADD COLUMN created_by_run_id TEXT;
ALTER TABLE webhooks ADD COLUMN created_by_run_id TEXT;
ALTER TABLE api_keys ADD COLUMN run_id TEXT;
ALTER TABLE api_keys ADD COLUMN instance_id TEXT;
CREATE INDEX runs_parent ON runs (parent_run_id) WHERE parent_run_id IS NOT NULL;
CREATE INDEX api_keys_run ON api_keys (run_id) WHERE run_id IS NOT NULL;
`;
