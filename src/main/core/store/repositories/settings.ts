// settings table: small named values, stored as text.
import type Database from 'better-sqlite3';

export function createSettingsRepository(db: Database.Database) {
  const get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const set = db.prepare<[string, string]>('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

  return {
    get: (key: string): string | undefined => get.get(key)?.value,
    set: (key: string, value: string): void => void set.run(key, value),
  };
}

export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
