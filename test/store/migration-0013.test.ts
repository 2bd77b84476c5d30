// Migration 0013 on a database at 0011: the notification tables arrive empty beside existing
// runs; a delivery belongs to a channel (deleted with it) and to at most one run (kept, unlinked,
// when the run goes); one delivery per channel and run; only known kinds and statuses.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0013_notification_channels', () => {
  it('adds the channel and delivery tables with their rules', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.version < 13));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES ('ins_1', 'i', 'i', '{}', '/tmp', 'running', '', ?, ?)").run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, created_at) VALUES ('thr_1', 'chat', ?)").run(at);
    db.prepare("INSERT INTO runs (id, instance_id, thread_id, source, status, prompt, created_at) VALUES ('run_1', 'ins_1', 'thr_1', 'api', 'failed', 'p', ?)").run(at);

    expect(migrate(db, migrations.filter((m) => m.version <= 13))).toEqual([13]);
    expect(db.prepare('SELECT id, status FROM runs').all()).toEqual([{ id: 'run_1', status: 'failed' }]);
    const channel = db.prepare("INSERT INTO notification_channels (id, name, kind, url, created_at, updated_at) VALUES (?, 'c', ?, 'http://127.0.0.1/', ?, ?)");
    channel.run('chn_1', 'webhook', at, at);
    expect(() => channel.run('chn_2', 'email', at, at)).toThrow(/CHECK/);
    expect(db.prepare("SELECT enabled, notify_on, sources FROM notification_channels WHERE id = 'chn_1'").get()).toEqual({ enabled: 1, notify_on: 'failures', sources: '[]' });

    const delivery = db.prepare("INSERT INTO notification_deliveries (id, channel_id, run_id, event, request_body, created_at, status) VALUES (?, 'chn_1', ?, 'run.failed', '{}', ?, ?)");
    delivery.run('ntf_1', 'run_1', at, 'pending');
    expect(() => delivery.run('ntf_2', 'run_1', at, 'pending')).toThrow(/UNIQUE/);
    delivery.run('ntf_3', null, at, 'delivered');
    delivery.run('ntf_4', null, at, 'failed');
    expect(() => delivery.run('ntf_5', null, at, 'lost')).toThrow(/CHECK/);
    expect(db.prepare("SELECT attempts, request_headers FROM notification_deliveries WHERE id = 'ntf_1'").get()).toEqual({ attempts: 0, request_headers: '{}' });

    db.prepare("DELETE FROM runs WHERE id = 'run_1'").run();
    expect(db.prepare("SELECT run_id FROM notification_deliveries WHERE id = 'ntf_1'").get()).toEqual({ run_id: null });
    db.prepare("DELETE FROM notification_channels WHERE id = 'chn_1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM notification_deliveries').get()).toEqual({ n: 0 });
    db.close();
  });
});
