// An automation's missed fires by due time, for its health: its newest missed fire and its missed
// fires in the last 30 days, read without scanning its on-time fires (one every few minutes for a
// busy schedule). The condition is the fires repository's "missed-like", word for word: SQLite uses
// a partial index only for a query that states its condition.
export default /* sql */ `
CREATE INDEX fires_missed ON fires (automation_id, due_at) WHERE (state = 'missed' OR (state = 'skipped' AND reason = 'catch_up'));
`;
