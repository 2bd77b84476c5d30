// A global sequence over all activity lines, so that a live stream (GET /api/events) resumes
// exactly from Last-Event-ID; and, per instance, the last line trimmed by retention, so that a
// cursor into trimmed lines can say how many it missed.
export default /* sql */ `
ALTER TABLE activity ADD COLUMN seq INTEGER;
UPDATE activity SET seq = ordered.n
  FROM (SELECT instance_id, line, row_number() OVER (ORDER BY timestamp, instance_id, line) AS n FROM activity) AS ordered
  WHERE ordered.instance_id = activity.instance_id AND ordered.line = activity.line;
CREATE UNIQUE INDEX activity_by_seq ON activity (seq);

CREATE TABLE counters (
  name  TEXT PRIMARY KEY,
  value INTEGER NOT NULL
) STRICT;
INSERT INTO counters (name, value) SELECT 'activity_seq', coalesce(max(seq), 0) FROM activity;

ALTER TABLE activity_heads ADD COLUMN trimmed_through INTEGER NOT NULL DEFAULT 0;
`;
