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
    // A run's key is the run's business: it is not listed, and ends with the run.
    'SELECT id, name, preview, scope, created_at, last_used_at FROM api_keys WHERE revoked_at IS NULL AND run_id IS NULL ORDER BY created_at, id',
  );
  const activeHashes = db.prepare<[], { id: string; hash: string; scope: Scope; last_used_at: string | null; run_id: string | null; instance_id: string | null }>(
    'SELECT id, hash, scope, last_used_at, run_id, instance_id FROM api_keys WHERE revoked_at IS NULL',
  );
  const insertForRun = db.prepare('INSERT INTO api_keys (id, name, preview, scope, hash, created_at, run_id, instance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  // A run's key is deleted, not kept revoked: one per run would otherwise pile up in every key check.
  const deleteForRuns = db.prepare<{ runId: string | null }>('DELETE FROM api_keys WHERE run_id IS NOT NULL AND (@runId IS NULL OR run_id = @runId)');
  const touch = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const revoke = db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL');

  return {
    insert(key: { id: string; name: string; preview: string; scope: Scope; hash: string; createdAt: string }): void {
      insert.run(key.id, key.name, key.preview, key.scope, key.hash, key.createdAt);
    },
    listActive: (): ApiKey[] =>
      listActive.all().map((row) => ({ id: row.id, name: row.name, preview: row.preview, scope: row.scope, createdAt: row.created_at, lastUsedAt: row.last_used_at })),
    activeHashes: () =>
      activeHashes.all().map((row) => ({ id: row.id, hash: row.hash, scope: row.scope, lastUsedAt: row.last_used_at, runId: row.run_id ?? undefined, instanceId: row.instance_id ?? undefined })),
    insertForRun(key: { id: string; name: string; preview: string; scope: Scope; hash: string; createdAt: string; runId: string; instanceId: string }): void {
      insertForRun.run(key.id, key.name, key.preview, key.scope, key.hash, key.createdAt, key.runId, key.instanceId);
    },
    /** Deletes the key of one run, or (null) of every run: none outlives its run, even across a crash. */
    deleteForRuns: (runId: string | null): void => void deleteForRuns.run({ runId }),
    touch: (id: string, at: string): void => void touch.run(at, id),
    /** True when a key was revoked by this call. */
    revoke: (id: string, at: string): boolean => revoke.run(at, id).changes === 1,
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
