// `steward backup FILE`: a consistent copy of the data folder's database, taken with SQLite's
// online backup through a read-only connection of its own, so it is safe while the daemon runs
// and writes. The copy appears under its name only once it is complete.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteBinding } from '../core/store/database';

export class BackupError extends Error {}

export interface Backup {
  file: string;
  bytes: number;
}

export async function backupDatabase(dataDir: string, target: string): Promise<Backup> {
  const source = path.join(dataDir, 'steward.db');
  const file = path.resolve(target);
  if (!fs.existsSync(source)) throw new BackupError(`There is no Steward database in ${dataDir} (choose the data folder with --data-dir).`);
  if (fs.existsSync(file)) throw new BackupError(`${file} already exists: remove it or choose another name.`);
  if (!fs.existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const partial = `${file}.partial-${process.pid}`;
  // Created first with mode 0600: the copy holds what the database holds, API key hashes included.
  fs.writeFileSync(partial, '', { mode: 0o600, flag: 'wx' });
  const db = new Database(source, { readonly: true, fileMustExist: true, ...sqliteBinding() });
  try {
    // Every page in one step: one read transaction, so one consistent snapshot, whatever the
    // daemon writes meanwhile (in WAL mode a reader does not hold up writers).
    await db.backup(partial, { progress: () => 0x7fffffff });
    fs.renameSync(partial, file);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  return { file, bytes: fs.statSync(file).size };
}
