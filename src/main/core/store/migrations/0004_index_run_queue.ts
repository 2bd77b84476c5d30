// The runner asks, for each instance, for its oldest queued run and whether one is running;
// these keep both answers independent of how many runs wait elsewhere.
export default /* sql */ `
CREATE INDEX runs_queued_by_instance ON runs (instance_id, created_at) WHERE status = 'queued';
CREATE INDEX runs_running_by_instance ON runs (instance_id) WHERE status = 'running';
`;
