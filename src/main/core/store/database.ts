// Opens the one SQLite file: private permissions, WAL, foreign keys, migrated to the latest schema.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from './migrate';
import { migrations } from './migrations';

export interface OpenDatabaseOptions {
  /** Path to a better_sqlite3.node built for the running runtime (Electron's ABI differs from Node's). */
  nativeBinding?: string;
}

/**
 * The options that pick which better_sqlite3.node to load, for every connection Steward opens: the
 * caller's (Electron's build), else STEWARD_SQLITE_BINDING (a build for another Node's ABI, as
 * `npm run test:node-versions` makes), else the package's own build.
 */
export function sqliteBinding(nativeBinding = process.env.STEWARD_SQLITE_BINDING): Database.Options {
  return nativeBinding ? { nativeBinding } : {};
}

export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database.Database {
  ensurePrivateDir(path.dirname(file));
  // Create the file ourselves so it is 0600 from its first byte, not after SQLite made it 0644.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  fs.chmodSync(file, 0o600);
  const db = new Database(file, sqliteBinding(options.nativeBinding));
  try {
    db.pragma('journal_mode = WAL');
    // FULL: a trigger answered 202 survives a power cut; group commit keeps the fsyncs few.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db, migrations);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}
