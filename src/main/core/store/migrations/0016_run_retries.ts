// Retries: when a run's usage limit resets (as its agent said), so its retry starts then; and the
// lookups the runner and the notifiers make: the earliest waiting retry, and whether a run was retried.
export default /* sql */ `
ALTER TABLE runs ADD COLUMN resets_at TEXT;
CREATE INDEX runs_waiting_to_retry ON runs (start_after) WHERE status = 'queued' AND start_after IS NOT NULL;
CREATE INDEX runs_by_retry_of ON runs (retry_of) WHERE retry_of IS NOT NULL;
`;
