// What a trigger, the runner's pump and a budget check ask of the runs table, each answered from
// an index that holds only what is asked about, so that none of them costs more with 100,000 runs
// queued than with none (issue 32):
// - the earliest time a queued run waits for (a retry's backoff): only queued runs that wait;
// - whether an automation or webhook has a run not yet ended (overlap): waiting ones too;
// - a queued run's place in its instance's queue, in the claim's order, without reading the table;
// - what an instance's or automation's runs spent in a period: only runs that reported usage.
export default /* sql */ `
CREATE INDEX runs_queued_start_after ON runs (start_after) WHERE status = 'queued' AND start_after IS NOT NULL;
DROP INDEX runs_active_by_source;
CREATE INDEX runs_open_by_source ON runs (source_id) WHERE status IN ('queued', 'running', 'waiting');
DROP INDEX runs_queued_by_instance;
CREATE INDEX runs_queued_by_instance ON runs (instance_id, created_at, id, start_after) WHERE status = 'queued';
CREATE INDEX runs_spend_by_instance ON runs (instance_id, created_at, cost_usd, input_tokens, output_tokens) WHERE cost_usd IS NOT NULL OR input_tokens IS NOT NULL OR output_tokens IS NOT NULL;
CREATE INDEX runs_spend_by_source ON runs (source_id, created_at, cost_usd, input_tokens, output_tokens) WHERE cost_usd IS NOT NULL OR input_tokens IS NOT NULL OR output_tokens IS NOT NULL;
`;
