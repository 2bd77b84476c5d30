// Migration 0016 on a database at 0015: runs made before it keep everything and have no reset
// time; a queued one made then is no retry and may start at once; whether a run was retried is found by index.
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

describe('0016_run_retries', () => {
  it('keeps earlier runs as they were, with no reset time and no retry', () => {
    const file = path.join(dir, 'steward.db');
    const db = new Database(file);
    migrate(db, migrations.filter((m) => m.version < 16));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare(
      "INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES ('ins_01M89Z0000000000000000000A', 'old', 'old', '{\"provider\":\"command\",\"preset\":\"custom\",\"command\":\"cat\"}', '/srv/w', 'running', '', ?, ?)",
    ).run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES ('thr_01M89Z0000000000000000000A', 'chat', NULL, ?)").run(at);
    const run = db.prepare("INSERT INTO runs (id, instance_id, thread_id, source, source_id, status, prompt, error, error_class, created_at) VALUES (?, 'ins_01M89Z0000000000000000000A', 'thr_01M89Z0000000000000000000A', 'api', NULL, ?, 'p', ?, ?, ?)");
    run.run('run_01M89Z0000000000000000000A', 'failed', 'The agent exited with code 1', 'agent_error', at);
    run.run('run_01M89Z0000000000000000000B', 'queued', null, null, at);
    expect(migrate(db, migrations.filter((m) => m.version <= 16))).toEqual([16]);
    db.close();

    const store = openStore(file);
    try {
      expect(store.runs.get('run_01M89Z0000000000000000000A')).toMatchObject({ status: 'failed', error: 'The agent exited with code 1', errorClass: 'agent_error', retryOf: null });
      expect(store.runs.resetsAt('run_01M89Z0000000000000000000A')).toBeNull();
      expect(store.runs.retried('run_01M89Z0000000000000000000A')).toBe(false);
      expect(store.runs.claimable('2026-01-01T00:00:01.000Z', 10).map((each) => each.id)).toEqual(['run_01M89Z0000000000000000000B']);
      expect(store.runs.nextStartAfter(at)).toBeNull();
      const plan = (sql: string) => store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all().map((row) => (row as { detail: string }).detail).join('\n');
      expect(plan("SELECT 1 FROM runs WHERE retry_of = 'x'")).toContain('runs_by_retry_of');
    } finally {
      store.close();
    }
  });
});
