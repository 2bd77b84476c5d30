// Migration 0012 on a database at 0011: runs, automations, webhooks and keys made before it keep
// working as they were — runs no agent started (no parent, depth 0), keys that belong to no run.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0012_run_lineage', () => {
  it('leaves earlier rows without lineage and earlier keys unbound', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    migrate(db, migrations.filter((m) => m.version < 12));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO instances (id, name, slug, avatar_url, agent, workspace_dir, status, created_at, updated_at) VALUES ('ins_1', 'i', 'i', '', '{}', '/w', 'running', ?, ?)").run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES ('thr_1', 'chat', 'ins_1', ?)").run(at);
    db.prepare("INSERT INTO runs (id, instance_id, thread_id, source, status, prompt, created_at) VALUES ('run_1', 'ins_1', 'thr_1', 'api', 'succeeded', 'p', ?)").run(at);
    db.prepare("INSERT INTO api_keys (id, name, preview, hash, created_at) VALUES ('key_1', 'old', 'stw_abcdef', 'h1', ?)").run(at);

    expect(migrate(db, migrations.filter((m) => m.version <= 12))).toEqual([12]);
    expect(db.prepare('SELECT id, parent_run_id, depth FROM runs').all()).toEqual([{ id: 'run_1', parent_run_id: null, depth: 0 }]);
    expect(db.prepare('SELECT id, scope, run_id, instance_id FROM api_keys').all()).toEqual([{ id: 'key_1', scope: 'admin', run_id: null, instance_id: null }]);
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('automations') WHERE name = 'created_by_run_id'").get()).toEqual({ n: 1 });
    expect(db.prepare("SELECT count(*) AS n FROM pragma_table_info('webhooks') WHERE name = 'created_by_run_id'").get()).toEqual({ n: 1 });
    db.close();
  });
});
