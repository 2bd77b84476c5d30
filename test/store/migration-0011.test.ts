// Migration 0011 on a database at 0010: existing API keys become admin, as they were; only the
// three scopes are accepted.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0011_api_key_scopes', () => {
  it('makes existing keys admin and refuses an unknown scope', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    migrate(db, migrations.filter((m) => m.version < 11));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO api_keys (id, name, preview, hash, created_at) VALUES ('key_1', 'old', 'stw_abcdef', 'h1', ?)").run(at);

    expect(migrate(db, migrations.filter((m) => m.version <= 11))).toEqual([11]);
    expect(db.prepare('SELECT id, scope FROM api_keys').all()).toEqual([{ id: 'key_1', scope: 'admin' }]);
    const insert = db.prepare("INSERT INTO api_keys (id, name, preview, hash, created_at, scope) VALUES (?, 'new', 'stw_x', ?, ?, ?)");
    insert.run('key_2', 'h2', at, 'read');
    expect(() => insert.run('key_3', 'h3', at, 'root')).toThrow(/CHECK/);
    db.close();
  });
});
