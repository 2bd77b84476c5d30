// Migration 0019 on a database at 0018 with channels and deliveries: every row is kept (a
// delivery's subject is its run, or itself when it had none), the channels untouched; a run may
// now have several deliveries on one channel (its end and its approvals), each subject once;
// deleting a channel still takes its deliveries, deleting a run still unlinks them.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0019_notify_approvals', () => {
  it('rebuilds the deliveries keeping every row, one delivery per channel and subject', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.version <= 18));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO instances (id, name, slug, agent, workspace_dir, status, avatar_url, created_at, updated_at) VALUES ('ins_1', 'i', 'i', '{}', '/tmp', 'running', '', ?, ?)").run(at, at);
    db.prepare("INSERT INTO threads (id, owner_type, created_at) VALUES ('thr_1', 'chat', ?)").run(at);
    db.prepare("INSERT INTO runs (id, instance_id, thread_id, source, status, prompt, created_at) VALUES ('run_1', 'ins_1', 'thr_1', 'api', 'failed', 'p', ?)").run(at);
    const channel = db.prepare("INSERT INTO notification_channels (id, name, kind, url, notify_on, sources, sealed_secret, created_at, updated_at) VALUES (?, ?, 'webhook', 'http://127.0.0.1/', ?, '[]', 'sealed', ?, ?)");
    channel.run('chn_1', 'Ops', 'all', at, at);
    const oldDelivery = db.prepare("INSERT INTO notification_deliveries (id, channel_id, run_id, event, status, attempts, request_body, created_at) VALUES (?, 'chn_1', ?, ?, ?, ?, '{}', ?)");
    oldDelivery.run('ntf_1', 'run_1', 'run.failed', 'delivered', 2, at);
    oldDelivery.run('ntf_2', null, 'test', 'failed', 1, at);
    const before = db.prepare('SELECT * FROM notification_deliveries ORDER BY id').all() as Record<string, unknown>[];

    expect(migrate(db, migrations.filter((m) => m.version <= 19))).toEqual([19]);
    expect(db.prepare('SELECT id, name, notify_on, sealed_secret FROM notification_channels').all()).toEqual([{ id: 'chn_1', name: 'Ops', notify_on: 'all', sealed_secret: 'sealed' }]);
    expect(db.prepare('SELECT * FROM notification_deliveries ORDER BY id').all()).toEqual([
      { ...before[0], about: 'run_1' },
      { ...before[1], about: 'ntf_2' },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);

    channel.run('chn_2', 'Attention', 'attention', at, at);
    expect(() => channel.run('chn_3', 'x', 'sometimes', at, at)).toThrow(/CHECK/);
    const delivery = db.prepare("INSERT INTO notification_deliveries (id, channel_id, run_id, about, event, request_body, created_at) VALUES (?, 'chn_1', 'run_1', ?, ?, '{}', ?)");
    delivery.run('ntf_3', 'apr_1', 'approval.requested', at);
    delivery.run('ntf_4', 'apr_2', 'approval.requested', at);
    expect(() => delivery.run('ntf_5', 'apr_1', 'approval.requested', at)).toThrow(/UNIQUE/);
    expect(() => delivery.run('ntf_6', 'run_1', 'run.failed', at)).toThrow(/UNIQUE/);

    db.prepare("DELETE FROM runs WHERE id = 'run_1'").run();
    expect(db.prepare("SELECT count(*) AS n FROM notification_deliveries WHERE run_id IS NULL").get()).toEqual({ n: 4 });
    db.prepare("DELETE FROM notification_channels WHERE id = 'chn_1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM notification_deliveries').get()).toEqual({ n: 0 });
    db.close();
  });
});
