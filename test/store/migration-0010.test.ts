// Migration 0010 on a database at 0009: webhooks keep the seed's behaviour (10,240 bytes, no
// filter, no fencing, generic sender), refused deliveries survive the table's rebuild, runs gain
// replay_of.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0010_webhook_deliveries', () => {
  it('keeps webhooks and refused deliveries as they were', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.version < 10));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO instances (id, name, slug, status, avatar_url, agent, workspace_dir, created_at, updated_at) VALUES ('ins_1', 'I', 'i', 'stopped', '', '{}', '/tmp', ?, ?)").run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES ('thr_1', 'webhook', 'whk_1', ?)").run(at);
    db.prepare("INSERT INTO webhooks (id, name, prompt_template, token, token_hash, enabled, instance_id, thread_id, created_at, updated_at) VALUES ('whk_1', 'W', '{{payload}}', 't', 'h', 1, 'ins_1', 'thr_1', ?, ?)").run(at, at);
    db.prepare("INSERT INTO deliveries (id, webhook_id, received_at, method, content_type, status, error_code) VALUES ('dlv_1', 'whk_1', ?, 'POST', 'image/png', 415, 'unsupported_media_type')").run(at);

    expect(migrate(db, migrations.filter((m) => m.version <= 10))).toEqual([10]);
    expect(db.prepare('SELECT sender, max_payload_bytes, filter, fence_payload, idempotency_key FROM webhooks').get()).toEqual({
      sender: 'generic', max_payload_bytes: 10_240, filter: '[]', fence_payload: 0, idempotency_key: null,
    });
    expect(db.prepare('SELECT id, webhook_id, method, content_type, status, outcome, error_code, origin, run_id, headers, body FROM deliveries').all()).toEqual([
      { id: 'dlv_1', webhook_id: 'whk_1', method: 'POST', content_type: 'image/png', status: 415, outcome: 'refused', error_code: 'unsupported_media_type', origin: 'sender', run_id: null, headers: '{}', body: null },
    ]);
    // The foreign key still cascades from webhooks to the rebuilt table.
    db.prepare("DELETE FROM webhooks WHERE id = 'whk_1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM deliveries').get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT name FROM pragma_table_info('runs') WHERE name = 'replay_of'").get()).toEqual({ name: 'replay_of' });
    db.close();
  });
});
