// api_keys table: only the SHA-256 of each key is stored.
import type Database from 'better-sqlite3';
import type { ApiKey, Scope } from '../../../../shared/contract';

interface ApiKeyRow {
  id: string;
  name: string;
  preview: string;
  scope: Scope;
  created_at: string;
  last_used_at: string | null;
}

export function createApiKeysRepository(db: Database.Database) {
  const insert = db.prepare('INSERT INTO api_keys (id, name, preview, scope, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)');
  const listActive = db.prepare<[], ApiKeyRow>(
    'SELECT id, name, preview, scope, created_at, last_used_at FROM api_keys WHERE revoked_at IS NULL ORDER BY created_at, id',
  );
  const activeHashes = db.prepare<[], { id: string; hash: string; scope: Scope; last_used_at: string | null }>(
    'SELECT id, hash, scope, last_used_at FROM api_keys WHERE revoked_at IS NULL',
  );
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  return {
    insert(key: { id: string; name: string; preview: string; scope: Scope; hash: string; createdAt: string }): void {
      insert.run(key.id, key.name, key.preview, key.scope, key.hash, key.createdAt);
    },
    listActive: (): ApiKey[] =>
      listActive.all().map((row) => ({ id: row.id, name: row.name, preview: row.preview, scope: row.scope, createdAt: row.created_at, lastUsedAt: row.last_used_at })),
    activeHashes: () => activeHashes.all().map((row) => ({ id: row.id, hash: row.hash, scope: row.scope, lastUsedAt: row.last_used_at })),
    touch: (id: string, at: string): void => void touch.run(at, id),
    /** True when a key was revoked by this call. */
    revoke: (id: string, at: string): boolean => revoke.run(at, id).changes === 1,
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
