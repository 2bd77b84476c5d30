// activity table: the append-only log per instance, line numbers from 1 with no gaps.
import type Database from 'better-sqlite3';

export const activityKinds = ['user', 'assistant', 'tool', 'search', 'system'] as const;
export type ActivityKind = (typeof activityKinds)[number];
export type ActivityLabel = 'cron' | 'hook' | 'chat' | 'api' | '';

export interface NewActivityLine {
  instanceId: string;
  runId: string | null;
  kind: ActivityKind;
  label: ActivityLabel;
  displayText: string;
  raw: string;
  timestamp: string;
}

export function createActivityRepository(db: Database.Database) {
  // Taking a line number and writing the line happen in the caller's transaction: two writers
  // can never take the same line or leave a gap.
  const nextLine = db.prepare<[string], { last_line: number }>(
    `INSERT INTO activity_heads (instance_id, last_line) VALUES (?, 1)
     ON CONFLICT (instance_id) DO UPDATE SET last_line = last_line + 1 RETURNING last_line`,
  );
  const insert = db.prepare(`INSERT INTO activity (instance_id, line, run_id, kind, label, display_text, raw, timestamp)
    VALUES (@instanceId, @line, @runId, @kind, @label, @displayText, @raw, @timestamp)`);

  return {
    /** Appends one line; call inside a transaction. Returns its line number. */
    append(entry: NewActivityLine): number {
      const taken = nextLine.get(entry.instanceId)!;
      insert.run({ ...entry, line: taken.last_line });
      return taken.last_line;
    },
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
