// Migration 0021 on a database at 0020 with an instance: the instance is kept as it was, and now
// accepts prompts from no other instance (a run reaches its own instance only), as every instance
// did before; a list written afterwards is read back.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { openStore } from '../../src/main/core/store';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0021_instance_accepts_prompts', () => {
  it('keeps every instance, accepting prompts from none', () => {
    const file = path.join(dir, 'steward.db');
    const db = new Database(file);
    migrate(db, migrations.filter((m) => m.version <= 20));
    const at = '2026-01-01T00:00:00.000Z';
    const agent = JSON.stringify({ provider: 'command', preset: 'custom', command: 'cat' });
    const insert = db.prepare("INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES (?, ?, ?, ?, '/tmp/w', 'running', '', ?, ?)");
    insert.run('ins_01M89Z0000000000000000000A', 'first', 'first', agent, at, at);
    insert.run('ins_01M89Z0000000000000000000B', 'second', 'second', agent, at, at);
    const before = db.prepare('SELECT * FROM instances ORDER BY id').all() as Record<string, unknown>[];

    expect(migrate(db, migrations.filter((m) => m.version <= 21))).toEqual([21]);
    expect(db.prepare('SELECT * FROM instances ORDER BY id').all()).toEqual(before.map((row) => ({ ...row, accepts_prompts_from: '[]' })));
    db.close();

    const store = openStore(file);
    try {
      expect(store.instances.get('ins_01M89Z0000000000000000000A')).toMatchObject({ name: 'first', acceptsPromptsFrom: [] });
      store.instances.setAcceptsPromptsFrom('ins_01M89Z0000000000000000000A', ['ins_01M89Z0000000000000000000B'], at);
      expect(store.instances.get('ins_01M89Z0000000000000000000A')?.acceptsPromptsFrom).toEqual(['ins_01M89Z0000000000000000000B']);
    } finally {
      store.close();
    }
  });
});
