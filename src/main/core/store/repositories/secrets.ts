// secrets table: sealed values by name. Sealing and opening happen in the secrets service.
import type Database from 'better-sqlite3';
import type { Secret } from '../../../../shared/contract';

interface SecretRow {
  name: string;
  sealed: string;
  created_at: string;
  updated_at: string;
}

const toSecret = (row: SecretRow): Secret => ({ name: row.name, createdAt: row.created_at, updatedAt: row.updated_at });

export function createSecretsRepository(db: Database.Database) {
  const list = db.prepare<[], SecretRow>('SELECT name, sealed, created_at, updated_at FROM secrets ORDER BY name');
  const get = db.prepare<[string], SecretRow>('SELECT name, sealed, created_at, updated_at FROM secrets WHERE name = ?');
  const put = db.prepare<[string, string, string, string]>(
    'INSERT INTO secrets (name, sealed, created_at, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at',
  );
  const remove = db.prepare<[string]>('DELETE FROM secrets WHERE name = ?');

  return {
    list: (): Secret[] => list.all().map(toSecret),
    get: (name: string): Secret | undefined => {
      const row = get.get(name);
      return row && toSecret(row);
    },
    sealed: (name: string): string | undefined => get.get(name)?.sealed,
    put(name: string, sealed: string, at: string): void {
      put.run(name, sealed, at, at);
    },
    delete: (name: string): boolean => remove.run(name).changes > 0,
  };
}
