// The scheduler asks, at every fire, whether the automation still has a run queued or running.
export default /* sql */ `
CREATE INDEX runs_active_by_source ON runs (source_id) WHERE status IN ('queued', 'running');
`;
