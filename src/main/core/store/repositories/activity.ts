// activity table: the append-only log per instance, line numbers from 1 with no gaps, and a
// global sequence over all lines for the live stream. Retention deletes a prefix of an instance's
// lines and remembers where it stopped (trimmed_through), so cursors stay meaningful.
import type Database from 'better-sqlite3';
import type { ActivityKind, ActivityLabel } from '../../../../shared/contract';
import type { CommitHooks, StoredActivityLine } from '../commit-hooks';

export type { ActivityKind, ActivityLabel, StoredActivityLine };

export interface NewActivityLine {
  instanceId: string;
  runId: string | null;
  kind: ActivityKind;
  label: ActivityLabel;
  displayText: string;
  raw: string;
  timestamp: string;
}

export interface ActivityFilter {
  kinds?: readonly string[] | undefined;
  labels?: readonly string[] | undefined;
  instanceIds?: readonly string[] | undefined;
  /** ISO UTC, inclusive. */
  since?: string | undefined;
  /** ISO UTC, exclusive. */
  until?: string | undefined;
}

export interface ActivityHead {
  lastLine: number;
  trimmedThrough: number;
}

interface LineRow {
  seq: number;
  instance_id: string;
  line: number;
  run_id: string | null;
  kind: string;
  label: string;
  display_text: string;
  raw: string;
  timestamp: string;
}

const lineColumns = 'seq, instance_id, line, run_id, kind, label, display_text, raw, timestamp';

const toLine = (row: LineRow): StoredActivityLine => ({
  seq: row.seq,
  instanceId: row.instance_id,
  line: row.line,
  runId: row.run_id,
  kind: row.kind,
  label: row.label,
  displayText: row.display_text,
  raw: row.raw,
  timestamp: row.timestamp,
});

/** SQL conditions and their parameters for a filter. */
function conditions(filter: ActivityFilter): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const among = (column: string, values: readonly string[] | undefined) => {
    if (values === undefined) return;
    sql.push(`${column} IN (${values.map(() => '?').join(', ')})`);
    params.push(...values);
  };
  among('kind', filter.kinds);
  among('label', filter.labels);
  among('instance_id', filter.instanceIds);
  if (filter.since !== undefined) {
    sql.push('timestamp >= ?');
    params.push(filter.since);
  }
  if (filter.until !== undefined) {
    sql.push('timestamp < ?');
    params.push(filter.until);
  }
  return { sql, params };
}

export function createActivityRepository(db: Database.Database, hooks: CommitHooks) {
  // Taking a line number and writing the line happen in the caller's transaction: two writers
  // can never take the same line or leave a gap.
  const nextLine = db.prepare<[string], { last_line: number }>(
    `INSERT INTO activity_heads (instance_id, last_line) VALUES (?, 1)
     ON CONFLICT (instance_id) DO UPDATE SET last_line = last_line + 1 RETURNING last_line`,
  );
  const nextSeq = db.prepare<[], { value: number }>("UPDATE counters SET value = value + 1 WHERE name = 'activity_seq' RETURNING value");
  const insert = db.prepare(`INSERT INTO activity (seq, instance_id, line, run_id, kind, label, display_text, raw, timestamp)
    VALUES (@seq, @instanceId, @line, @runId, @kind, @label, @displayText, @raw, @timestamp)`);
  const moveHead = db.prepare<{ instanceId: string; line: number; trimmedThrough: number }>(
    `INSERT INTO activity_heads (instance_id, last_line, trimmed_through) VALUES (@instanceId, @line, @trimmedThrough)
     ON CONFLICT (instance_id) DO UPDATE SET last_line = @line, trimmed_through = max(trimmed_through, @trimmedThrough)`,
  );
  const heads = db.prepare<[], { instance_id: string; last_line: number; trimmed_through: number }>('SELECT instance_id, last_line, trimmed_through FROM activity_heads');
  const head = db.prepare<[string], { last_line: number; trimmed_through: number }>('SELECT last_line, trimmed_through FROM activity_heads WHERE instance_id = ?');
  const sinceSeq = db.prepare<[number, number], LineRow>(`SELECT ${lineColumns} FROM activity WHERE seq > ? ORDER BY seq LIMIT ?`);
  const lastSeq = db.prepare<[], { value: number }>("SELECT value FROM counters WHERE name = 'activity_seq'");
  const trimLines = db.prepare<[string, number]>('DELETE FROM activity WHERE instance_id = ? AND line <= ?');
  const markTrimmed = db.prepare<[number, string]>('UPDATE activity_heads SET trimmed_through = max(trimmed_through, ?) WHERE instance_id = ?');
  const lastLineBefore = db.prepare<[string, string], { line: number | null }>('SELECT max(line) AS line FROM activity WHERE instance_id = ? AND timestamp < ?');
  const statements = new Map<string, Database.Statement<unknown[], LineRow>>();
  const query = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[], LineRow>(sql)));
    return statement;
  };

  return {
    /** Appends one line; call inside a transaction. Announced to subscribers once it commits. */
    append(entry: NewActivityLine): StoredActivityLine {
      const line = nextLine.get(entry.instanceId)!.last_line;
      const seq = nextSeq.get()!.value;
      insert.run({ ...entry, line, seq });
      const stored = { ...entry, line, seq };
      if (hooks.wanted) hooks.announce({ type: 'activity', line: stored });
      return stored;
    },

    /**
     * Keeps a line another Steward wrote, under its own number; call inside a transaction. `seen`
     * when it is kept already; `gap` when lines before it are missing and `acceptGap` is false (the
     * caller fetches them first); with `acceptGap` the missing ones count as trimmed (the remote's
     * retention removed them before they could be read).
     */
    mirror(entry: NewActivityLine & { line: number }, acceptGap: boolean): 'added' | 'seen' | 'gap' {
      const last = head.get(entry.instanceId)?.last_line ?? 0;
      if (entry.line <= last) return 'seen';
      if (entry.line > last + 1 && !acceptGap) return 'gap';
      moveHead.run({ instanceId: entry.instanceId, line: entry.line, trimmedThrough: entry.line > last + 1 ? entry.line - 1 : 0 });
      const seq = nextSeq.get()!.value;
      insert.run({ ...entry, seq });
      if (hooks.wanted) hooks.announce({ type: 'activity', line: { ...entry, seq } });
      return 'added';
    },

    heads(): Map<string, ActivityHead> {
      return new Map(heads.all().map((row) => [row.instance_id, { lastLine: row.last_line, trimmedThrough: row.trimmed_through }]));
    },

    head(instanceId: string): ActivityHead {
      const row = head.get(instanceId);
      return { lastLine: row?.last_line ?? 0, trimmedThrough: row?.trimmed_through ?? 0 };
    },

    /** An instance's lines after `afterLine` that pass the filter, in line order. */
    after(instanceId: string, afterLine: number, limit: number, filter: ActivityFilter = {}): StoredActivityLine[] {
      const { sql, params } = conditions(filter);
      const where = ['instance_id = ?', 'line > ?', ...sql].join(' AND ');
      return query(`SELECT ${lineColumns} FROM activity WHERE ${where} ORDER BY line LIMIT ?`)
        .all(instanceId, afterLine, ...params, limit)
        .map(toLine);
    },

    /** The newest `limit` lines that pass the filter, oldest first. */
    latest(limit: number, filter: ActivityFilter = {}): StoredActivityLine[] {
      const { sql, params } = conditions(filter);
      const where = sql.length > 0 ? `WHERE ${sql.join(' AND ')}` : '';
      return query(`SELECT ${lineColumns} FROM activity ${where} ORDER BY timestamp DESC, instance_id DESC, line DESC LIMIT ?`)
        .all(...params, limit)
        .map(toLine)
        .reverse();
    },

    /** Lines after a sequence number, in the order they were written (the live stream's resume). */
    sinceSeq: (seq: number, limit: number): StoredActivityLine[] => sinceSeq.all(seq, limit).map(toLine),
    lastSeq: (): number => lastSeq.get()?.value ?? 0,

    /** Deletes an instance's lines up to and including `throughLine`. */
    trim(instanceId: string, throughLine: number): number {
      const removed = trimLines.run(instanceId, throughLine).changes;
      markTrimmed.run(throughLine, instanceId);
      return removed;
    },

    /** The last line an instance wrote before `timestamp`, 0 if none. */
    lastLineBefore: (instanceId: string, timestamp: string): number => lastLineBefore.get(instanceId, timestamp)?.line ?? 0,
  };
}

export type ActivityRepository = ReturnType<typeof createActivityRepository>;
