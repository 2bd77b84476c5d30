// Event triggers (issue 33): an automation's trigger is one JSON object naming its kind (after, at,
// every, watch, git, mail, feed), no longer only "after"; each event source keeps its cursor as
// key-value rows (the last UID, the last commit, seen item ids, a folder's known files), moved in
// the same transaction as the runs it starts; and a fire may be an event, several to a due time,
// told apart by the event's key and described in words, and found again by its run (mail is marked
// read or moved after its run succeeds).
export default /* sql */ `
ALTER TABLE automations ADD COLUMN trigger TEXT;
UPDATE automations SET trigger = json_object('after', json(trigger_after)) WHERE trigger_after IS NOT NULL;
ALTER TABLE automations DROP COLUMN trigger_after;

CREATE TABLE source_state (
  automation_id TEXT NOT NULL,
  key           TEXT NOT NULL,
  value         TEXT NOT NULL,
  PRIMARY KEY (automation_id, key)
) STRICT, WITHOUT ROWID;

CREATE TABLE fires_new (
  automation_id TEXT NOT NULL,
  due_at        TEXT NOT NULL,
  event_key     TEXT NOT NULL DEFAULT '',
  state         TEXT NOT NULL,
  reason        TEXT,
  detail        TEXT,
  event         TEXT,
  run_id        TEXT,
  recorded_at   TEXT NOT NULL,
  PRIMARY KEY (automation_id, due_at, event_key)
) STRICT, WITHOUT ROWID;
INSERT INTO fires_new (automation_id, due_at, state, reason, detail, run_id, recorded_at)
  SELECT automation_id, due_at, state, reason, detail, run_id, recorded_at FROM fires;
DROP TABLE fires;
ALTER TABLE fires_new RENAME TO fires;
CREATE INDEX fires_by_due ON fires (due_at, automation_id);
CREATE INDEX fires_by_run ON fires (run_id) WHERE run_id IS NOT NULL;
CREATE INDEX fires_missed ON fires (automation_id, due_at) WHERE (state = 'missed' OR (state = 'skipped' AND reason = 'catch_up'));
`;
