// fires table <-> Fire: every due fire of a scheduled automation and what became of it.
import type Database from 'better-sqlite3';
import type { Fire, FireReason, FireState, RunStatus } from '../../../../shared/contract';

interface FireRow {
  automation_id: string;
  due_at: string;
  state: FireState;
  reason: FireReason | null;
  detail: string | null;
  event: string | null;
  run_id: string | null;
  run_status: RunStatus | null;
  recorded_at: string;
}

/** A fire as written: an event's fire adds its key (several events may share a due time). */
export type FireRecord = Omit<Fire, 'runStatus' | 'event'> & { event?: string | null; eventKey?: string };

/** What an automation's health takes from its fires. */
export interface FireFigures {
  lastDueAt: string | null;
  missing: boolean;
  missedSince: number;
}

const toFire = (row: FireRow): Fire => ({
  automationId: row.automation_id,
  dueAt: row.due_at,
  state: row.state,
  reason: row.reason,
  detail: row.detail,
  event: row.event,
  runId: row.run_id,
  runStatus: row.run_status,
  recordedAt: row.recorded_at,
});

const selected = `SELECT f.automation_id, f.due_at, f.state, f.reason, f.detail, f.event, f.run_id, r.status AS run_status, f.recorded_at
  FROM fires f LEFT JOIN runs r ON r.id = f.run_id`;

/** Fires that did not run for want of Steward or of an awake machine (fires_missed holds them: keep the two word for word). */
const missedLike = "(state = 'missed' OR (state = 'skipped' AND reason = 'catch_up'))";

export function createFiresRepository(db: Database.Database) {
  // A due time is dealt with once; a second record of it (a retried transaction) changes nothing.
  const insert = db.prepare(`INSERT OR IGNORE INTO fires (automation_id, due_at, event_key, state, reason, detail, event, run_id, recorded_at)
    VALUES (@automationId, @dueAt, @eventKey, @state, @reason, @detail, @event, @runId, @recordedAt)`);
  const since = db.prepare<[string, string, number], FireRow>(`${selected} WHERE f.automation_id = ? AND f.due_at >= ? ORDER BY f.due_at DESC LIMIT ?`);
  // The agenda's past: a page in (due time, automation) order after a cursor, read in the index's own
  // order so that a page stops at its limit however many fires the window holds.
  const page = db.prepare<{ from: string; to: string; afterDue: string; afterId: string; limit: number }, FireRow & { automation_name: string; instance_id: string }>(
    `SELECT f.automation_id, f.due_at, f.state, f.reason, f.detail, f.event, f.run_id, r.status AS run_status, f.recorded_at, a.name AS automation_name, a.instance_id
     FROM fires f JOIN automations a ON a.id = f.automation_id LEFT JOIN runs r ON r.id = f.run_id
     WHERE f.due_at >= @from AND f.due_at < @to AND (f.due_at, f.automation_id) > (@afterDue, @afterId)
     ORDER BY f.due_at, f.automation_id LIMIT @limit`,
  );
  const latest = db.prepare<[string], FireRow>(`${selected} WHERE f.automation_id = ? ORDER BY f.due_at DESC LIMIT 1`);
  const prune = db.prepare<[string]>('DELETE FROM fires WHERE due_at < ?');
  // For each given automation: its newest fire, its newest missed one, whether an on-time fire came
  // after that (missing: none did), and its missed fires since a time. One statement for any number
  // of automations, each figure an index seek within its own fires; the missed ones read from
  // fires_missed by name (without statistics SQLite would rather range over all its fires).
  const figures = db.prepare<{ ids: string; since: string }, { automation_id: string; last_due: string | null; last_missed: string | null; fired_after: number; missed_since: number }>(
    `WITH m AS MATERIALIZED (SELECT j.value AS automation_id,
         (SELECT max(due_at) FROM fires WHERE automation_id = j.value) AS last_due,
         (SELECT max(due_at) FROM fires INDEXED BY fires_missed WHERE automation_id = j.value AND ${missedLike}) AS last_missed,
         (SELECT count(*) FROM fires INDEXED BY fires_missed WHERE automation_id = j.value AND due_at >= @since AND ${missedLike}) AS missed_since
       FROM json_each(@ids) j)
     SELECT automation_id, last_due, last_missed, missed_since,
       last_missed IS NOT NULL AND EXISTS (SELECT 1 FROM fires f WHERE f.automation_id = m.automation_id AND f.due_at > m.last_missed AND f.state = 'fired') AS fired_after
     FROM m`,
  );
  const removeFor = db.prepare<[string]>('DELETE FROM fires WHERE automation_id = ?');
  const byRun = db.prepare<[string], { automation_id: string; event_key: string }>("SELECT automation_id, event_key FROM fires INDEXED BY fires_by_run WHERE run_id = ?");

  return {
    record(fire: FireRecord): void {
      insert.run({ ...fire, eventKey: fire.eventKey ?? '', event: fire.event ?? null });
    },
    /** An automation's fires due at or after `from`, newest first. */
    since: (automationId: string, from: string, limit: number): Fire[] => since.all(automationId, from, limit).map(toFire),
    /** Every automation's fires due in [from, to) after the cursor (due time, automation id), oldest first, with the automation's name and instance. */
    page(from: string, to: string, after: { dueAt: string; automationId: string } | null, limit: number): (Fire & { automationName: string; instanceId: string })[] {
      return page
        .all({ from, to, afterDue: after?.dueAt ?? '', afterId: after?.automationId ?? '', limit })
        .map((row) => ({ ...toFire(row), automationName: row.automation_name, instanceId: row.instance_id }));
    },
    latest(automationId: string): Fire | undefined {
      const row = latest.get(automationId);
      return row && toFire(row);
    },
    /** For each of these automations: its newest fire's due time; whether it is missing fires (its newest missed fire is newer than its newest on-time one); its missed fires since `since`. */
    figures(automationIds: readonly string[], since: string): Map<string, FireFigures> {
      const found = new Map<string, FireFigures>();
      for (const row of figures.all({ ids: JSON.stringify(automationIds), since })) {
        found.set(row.automation_id, { lastDueAt: row.last_due, missing: row.last_missed !== null && row.fired_after === 0, missedSince: row.missed_since });
      }
      return found;
    },
    /** The event whose fire queued this run, if an event's did. */
    eventOfRun(runId: string): { automationId: string; eventKey: string } | undefined {
      const row = byRun.get(runId);
      return row && row.event_key !== '' ? { automationId: row.automation_id, eventKey: row.event_key } : undefined;
    },
    /** Forgets fires due before `before`. */
    prune: (before: string): number => prune.run(before).changes,
    deleteFor: (automationId: string): void => void removeFor.run(automationId),
  };
}

export type FiresRepository = ReturnType<typeof createFiresRepository>;
