// settings table: small named values, stored as text. Read on hot paths (every trigger checks the
// queue limit), so values are remembered after the first read; this process is the only writer.
import type Database from 'better-sqlite3';

export function createSettingsRepository(db: Database.Database) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare<[string, string]>('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const known = new Map<string, string | undefined>();
  let version = 0;

  return {
    get(key: string): string | undefined {
      if (!known.has(key)) known.set(key, get.get(key)?.value);
      return known.get(key);
    },
    set(key: string, value: string): void {
      set.run(key, value);
      known.set(key, value);
      version++;
    },
    /** Changes with every write: readers may keep what they derived until it moves. */
    version: (): number => version,
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
