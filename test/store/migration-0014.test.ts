// Migration 0014 on a database at 0013: an instance made before sandboxes existed keeps running as
// it did (`off`, which the UI marks "not sandboxed"), and reads back through the repository so.
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

describe('0014_instance_sandbox', () => {
  it('leaves existing instances unsandboxed, as they ran', () => {
    const file = path.join(dir, 'steward.db');
    const db = new Database(file);
    migrate(db, migrations.filter((m) => m.version < 14));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      "INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES ('ins_01M89Z0000000000000000000A', 'old', 'old', '{\"provider\":\"command\",\"preset\":\"custom\",\"command\":\"cat\"}', '/srv/w', 'running', '', ?, ?)",
    ).run(at, at);
    expect(migrate(db, migrations.filter((m) => m.version <= 14))).toEqual([14]);
    db.close();

    const store = openStore(file);
    try {
      expect(store.instances.get('ins_01M89Z0000000000000000000A')).toMatchObject({ name: 'old', sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } });
    } finally {
      store.close();
    }
  });
});
