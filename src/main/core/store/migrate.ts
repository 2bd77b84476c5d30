// Applies pending migrations at start, each in its own transaction, recorded with a checksum.
// Refuses a database whose applied migrations were edited or come from a newer Steward.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Migration } from './migrations';

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function checksum(sql: string): string {
  return createHash('sha256').update(sql).digest('hex');
}

interface AppliedRow {
  version: number;
  name: string;
  checksum: string;
}

/** Brings the database up to the last migration; returns the versions it applied. */
export function migrate(db: Database.Database, migrations: Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    checksum   TEXT NOT NULL,
    applied_at TEXT NOT NULL
  ) STRICT`);
  const applied = db.prepare<[], AppliedRow>('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all();
  const known = new Map(migrations.map((migration) => [migration.version, migration]));

  for (const row of applied) {
    const migration = known.get(row.version);
    if (!migration) {
      throw new MigrationError(`The database has migration ${row.name}, which this version of Steward does not know: it was written by a newer Steward.`);
    }
    if (checksum(migration.sql) !== row.checksum) {
      throw new MigrationError(`Migration ${row.name} was changed after it was applied to this database; add a new migration instead of editing it.`);
    }
  }

  const done = new Set(applied.map((row) => row.version));
  const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
  const appliedNow: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, checksum(migration.sql), new Date().toISOString());
    })();
    appliedNow.push(migration.version);
  }
  return appliedNow;
}
