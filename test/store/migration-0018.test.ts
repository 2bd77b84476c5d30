// Migration 0018 on a database at 0017: notification channels and their deliveries survive the
// rebuild that lets a channel be `on: attention`, and deleting a channel still takes its deliveries.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/main/core/store/migrate';
import { migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dir = tempDir('steward-store-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('0018_attention_channels', () => {
  it('keeps channels and deliveries, and takes attention', () => {
    const db = new Database(path.join(dir, 'steward.db'));
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.version < 18));
    const at = '2026-01-01T00:00:00.000Z';
    db.prepare("INSERT INTO notification_channels (id, name, kind, url, enabled, notify_on, sources, created_at, updated_at) VALUES ('chn_1', 'Ops', 'ntfy', 'https://ntfy.sh/ops', 1, 'failures', '[]', ?, ?)").run(at, at);
    db.prepare("INSERT INTO notification_deliveries (id, channel_id, run_id, event, request_body, created_at) VALUES ('ntf_1', 'chn_1', NULL, 'run.failed', '{}', ?)").run(at);
    expect(() => db.prepare("UPDATE notification_channels SET notify_on = 'attention'").run()).toThrow(/CHECK/);

    expect(migrate(db, migrations.filter((m) => m.version <= 18))).toEqual([18]);
    expect(db.prepare('SELECT id, name, notify_on FROM notification_channels').all()).toEqual([{ id: 'chn_1', name: 'Ops', notify_on: 'failures' }]);
    expect(db.prepare('SELECT id, channel_id, event FROM notification_deliveries').all()).toEqual([{ id: 'ntf_1', channel_id: 'chn_1', event: 'run.failed' }]);
    db.prepare("UPDATE notification_channels SET notify_on = 'attention'").run();
    expect(() => db.prepare("UPDATE notification_channels SET notify_on = 'sometimes'").run()).toThrow(/CHECK/);
    expect(db.pragma('foreign_key_check')).toEqual([]);

    db.prepare("DELETE FROM notification_channels WHERE id = 'chn_1'").run();
    expect(db.prepare('SELECT count(*) AS n FROM notification_deliveries').get()).toEqual({ n: 0 });
    db.close();
  });
});
