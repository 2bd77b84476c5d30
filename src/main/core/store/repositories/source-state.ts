// source_state table: each event source's cursor, as key-value rows per automation (the last UID
// and UIDVALIDITY, the last commit seen, the seen item ids, a folder's known files). Rows rather
// than one document: a folder of 10,000 files changes a row per file, not a megabyte per event.
import type Database from 'better-sqlite3';

/** What a source moves its cursor by: keys set to values, keys deleted. */
export interface CursorChange {
  set?: Iterable<readonly [string, string]>;
  delete?: Iterable<string>;
}

export function createSourceStateRepository(db: Database.Database) {
  const get = db.prepare<[string, string], { value: string }>('SELECT value FROM source_state WHERE automation_id = ? AND key = ?');
  const all = db.prepare<[string], { key: string; value: string }>('SELECT key, value FROM source_state WHERE automation_id = ? ORDER BY key');
  // Keys under a prefix: [prefix, prefix + U+FFFF), the index's own range.
  const under = db.prepare<[string, string, string], { key: string; value: string }>('SELECT key, value FROM source_state WHERE automation_id = ? AND key >= ? AND key < ? ORDER BY key');
  const count = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM source_state WHERE automation_id = ?');
  const set = db.prepare<[string, string, string]>('INSERT INTO source_state (automation_id, key, value) VALUES (?, ?, ?) ON CONFLICT (automation_id, key) DO UPDATE SET value = excluded.value');
  const remove = db.prepare<[string, string]>('DELETE FROM source_state WHERE automation_id = ? AND key = ?');
  const clear = db.prepare<[string]>('DELETE FROM source_state WHERE automation_id = ?');

  return {
    get: (automationId: string, key: string): string | undefined => get.get(automationId, key)?.value,
    /** Every key and value, or those under `prefix`, in key order. */
    entries(automationId: string, prefix?: string): Map<string, string> {
      const rows = prefix === undefined ? all.all(automationId) : under.all(automationId, prefix, `${prefix}\uffff`);
      return new Map(rows.map((row) => [row.key, row.value]));
    },
    /** Whether the source has a cursor at all (false: it has never looked). */
    has: (automationId: string): boolean => count.get(automationId)!.n > 0,
    /** Moves the cursor; the caller holds the transaction the move belongs to. */
    apply(automationId: string, change: CursorChange): void {
      for (const key of change.delete ?? []) remove.run(automationId, key);
      for (const [key, value] of change.set ?? []) set.run(automationId, key, value);
    },
    /** Forgets the cursor (the automation was deleted, or its source changed). */
    clear: (automationId: string): void => void clear.run(automationId),
  };
}

export type SourceStateRepository = ReturnType<typeof createSourceStateRepository>;
