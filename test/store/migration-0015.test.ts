// Migration 0015 on a database at 0014: an automation keeps its schedule with no retry, no budget
// and no alarm; a run reads back with nothing reported (no error class, outcome or cost); an
// instance and a webhook have no budget and no retry.
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

describe('0015_automation_reliability', () => {
  it('leaves existing automations, runs and instances as they were, with nothing new switched on', () => {
    const file = path.join(dir, 'steward.db');
    const db = new Database(file);
    migrate(db, migrations.filter((m) => m.version < 15));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      "INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES ('ins_01M89Z0000000000000000000A', 'old', 'old', '{\"provider\":\"command\",\"preset\":\"custom\",\"command\":\"cat\"}', '/srv/w', 'running', '', ?, ?)",
    ).run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES ('thr_01M89Z0000000000000000000A', 'automation', 'aut_01M89Z0000000000000000000A', ?)").run(at);
    db.prepare(
      "INSERT INTO automations (id, name, prompt, cron_expression, timezone, enabled, instance_id, thread_id, created_at, updated_at) VALUES ('aut_01M89Z0000000000000000000A', 'Nightly', 'p', '0 0 * * *', 'UTC', 1, 'ins_01M89Z0000000000000000000A', 'thr_01M89Z0000000000000000000A', ?, ?)",
    ).run(at, at);
    db.prepare(
      "INSERT INTO runs (id, instance_id, thread_id, source, source_id, status, prompt, created_at) VALUES ('run_01M89Z0000000000000000000A', 'ins_01M89Z0000000000000000000A', 'thr_01M89Z0000000000000000000A', 'automation', 'aut_01M89Z0000000000000000000A', 'succeeded', 'p', ?)",
    ).run(at);
    expect(migrate(db, migrations.filter((m) => m.version <= 15))).toEqual([15]);
    db.close();

    const store = openStore(file);
    try {
      expect(store.automations.get('aut_01M89Z0000000000000000000A')).toMatchObject({
        cronExpression: '0 0 * * *',
        trigger: null,
        retry: { attempts: 0 },
        budget: {},
        alarm: null,
      });
      expect(store.runs.get('run_01M89Z0000000000000000000A')).toMatchObject({ errorClass: null, retryOf: null, startAfter: null, outcome: null, summary: null, costUsd: null, inputTokens: null, outputTokens: null });
      expect(store.instances.get('ins_01M89Z0000000000000000000A')).toMatchObject({ budget: {} });
      expect(store.fires.latest('aut_01M89Z0000000000000000000A')).toBeUndefined();
    } finally {
      store.close();
    }
  });
});
