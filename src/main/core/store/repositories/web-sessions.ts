// web_sessions table: login links (single use) and browser sessions, stored as SHA-256 hashes.
import type Database from 'better-sqlite3';

export type WebSessionKind = 'login' | 'session';

export function createWebSessionsRepository(db: Database.Database) {
  const insert = db.prepare<[string, string, string, string]>('INSERT INTO web_sessions (hash, kind, expires_at, created_at) VALUES (?, ?, ?, ?)');
  const find = db.prepare<[string, string, string], { one: number }>('SELECT 1 AS one FROM web_sessions WHERE hash = ? AND kind = ? AND expires_at > ?');
  const remove = db.prepare<[string, string]>('DELETE FROM web_sessions WHERE hash = ? AND kind = ?');
  const expire = db.prepare<[string]>('DELETE FROM web_sessions WHERE expires_at <= ?');
  return {
    insert(hash: string, kind: WebSessionKind, expiresAt: string, createdAt: string): void {
      insert.run(hash, kind, expiresAt, createdAt);
    },
    valid: (hash: string, kind: WebSessionKind, now: string): boolean => find.get(hash, kind, now) !== undefined,
    /** Deletes it; true when it was there (a login link is taken exactly once). */
    take: (hash: string, kind: WebSessionKind): boolean => remove.run(hash, kind).changes === 1,
    expire: (now: string): number => expire.run(now).changes,
  };
}
