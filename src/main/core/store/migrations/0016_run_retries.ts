// Retries: when a run's usage limit resets (as its agent said), so that its retry starts then; and
// the notifiers' lookup of whether a run was retried. (The runner's look for the earliest waiting
// retry reads the queued runs through runs_by_status.)
export default /* sql */ `
ALTER TABLE runs ADD COLUMN resets_at TEXT;
CREATE INDEX runs_by_retry_of ON runs (retry_of) WHERE retry_of IS NOT NULL;
`;
