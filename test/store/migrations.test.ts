// Migrations: applied once in order, re-running is a no-op, an edited or unknown one is refused.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/main/core/store/database';
import { MigrationError, checksum, migrate } from '../../src/main/core/store/migrate';
import { type Migration, migrations } from '../../src/main/core/store/migrations';
import { tempDir } from '../support/core';

const dirs: string[] = [];
function dbFile(): string {
  const dir = tempDir('steward-store-');
  dirs.push(dir);
  return path.join(dir, 'data', 'steward.db');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const tables = (db: Database.Database) =>
  db.prepare<[], { name: string }>("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").all().map((row) => row.name);

describe('migrations', () => {
  it('create every table of a fresh database, STRICT, and record each migration with its checksum', () => {
    const db = openDatabase(dbFile());
    expect(tables(db)).toEqual(
      ['activity', 'activity_heads', 'api_keys', 'approvals', 'automations', 'budget_notices', 'config_origins', 'counters', 'deliveries', 'fires', 'instances', 'messages', 'notification_channels', 'notification_deliveries', 'remote_instances', 'remotes', 'runs', 'schema_migrations', 'secrets', 'settings', 'source_state', 'thread_sessions', 'threads', 'web_sessions', 'webhooks'],
    );
    const recorded = db.prepare('SELECT version, name, checksum FROM schema_migrations').all();
    expect(recorded).toEqual(migrations.map((m) => ({ version: m.version, name: m.name, checksum: checksum(m.sql) })));
    const strict = db.prepare<[string], { name: string; strict: number }>('SELECT name, strict FROM pragma_table_list WHERE schema = ?').all('main');
    for (const table of strict.filter((t) => !t.name.startsWith('sqlite_'))) expect(table.strict, table.name).toBe(1);
    db.close();
  });

  it('re-running is a no-op that keeps the data', () => {
    const file = dbFile();
    const db = openDatabase(file);
    db.prepare("INSERT INTO settings (key, value) VALUES ('theme', '\"dark\"')").run();
    expect(migrate(db, migrations)).toEqual([]);
    db.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT value FROM settings WHERE key = ?').get('theme')).toEqual({ value: '"dark"' });
    again.close();
  });

  it('applies only the new migrations to an older database, keeping its rows', () => {
    const file = dbFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    const first = migrations.slice(0, 1);
    migrate(db, first);
    db.prepare("INSERT INTO settings (key, value) VALUES ('kept', '1')").run();
    const next: Migration = { version: 99, name: '0099_add_example', sql: 'ALTER TABLE settings ADD COLUMN note TEXT' };
    expect(migrate(db, [...first, next])).toEqual([99]);
    expect(db.prepare('SELECT key, value, note FROM settings').all()).toEqual([{ key: 'kept', value: '1', note: null }]);
    db.close();
  });

  it('0020 keeps every activity line and head, and deleting an instance (local or a remote one) still deletes its lines', () => {
    const file = dbFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    db.pragma('foreign_keys = ON');
    migrate(db, migrations.filter((m) => m.version < 20));
    const at = '2026-11-25T09:00:00.000Z';
    const instance = db.prepare(`INSERT INTO instances (id, name, slug, status, status_reason, image_tag, avatar_url, agent, sandbox, budget, permissions, workspace_dir, is_default, created_at, updated_at)
      VALUES (?, ?, ?, 'running', NULL, '', '', '{}', '{}', '{}', '{}', '/w', 0, ?, ?)`);
    instance.run('ins_A', 'A', 'a', at, at);
    instance.run('ins_B', 'B', 'b', at, at);
    const line = db.prepare("INSERT INTO activity (instance_id, line, run_id, kind, label, display_text, raw, timestamp, seq) VALUES (?, ?, NULL, 'system', '', ?, '{}', ?, ?)");
    line.run('ins_A', 1, 'a1', at, 1);
    line.run('ins_A', 2, 'a2', at, 3);
    line.run('ins_B', 1, 'b1', at, 2);
    db.prepare("INSERT INTO activity_heads (instance_id, last_line, trimmed_through) VALUES ('ins_A', 2, 0), ('ins_B', 1, 0)").run();

    expect(migrate(db, migrations.filter((m) => m.version <= 20))).toEqual([20]);
    expect(db.prepare('SELECT instance_id, line, display_text, seq FROM activity ORDER BY seq').all()).toEqual([
      { instance_id: 'ins_A', line: 1, display_text: 'a1', seq: 1 },
      { instance_id: 'ins_B', line: 1, display_text: 'b1', seq: 2 },
      { instance_id: 'ins_A', line: 2, display_text: 'a2', seq: 3 },
    ]);
    db.prepare("DELETE FROM instances WHERE id = 'ins_A'").run();
    expect(db.prepare('SELECT instance_id FROM activity').all()).toEqual([{ instance_id: 'ins_B' }]);
    expect(db.prepare('SELECT instance_id FROM activity_heads').all()).toEqual([{ instance_id: 'ins_B' }]);

    // A remote's instance's lines are kept without an instances row, and go with the remote.
    db.prepare("INSERT INTO remotes (id, name, url, api_key_ref, created_at, updated_at) VALUES ('rem_R', 'R', 'https://r.example', 'k', ?, ?)").run(at, at);
    db.prepare("INSERT INTO remote_instances (id, remote_id, instance, updated_at) VALUES ('ins_R', 'rem_R', '{}', ?)").run(at);
    line.run('ins_R', 7, 'r7', at, 4);
    db.prepare("INSERT INTO activity_heads (instance_id, last_line, trimmed_through) VALUES ('ins_R', 7, 6)").run();
    db.prepare("DELETE FROM remotes WHERE id = 'rem_R'").run();
    expect(db.prepare('SELECT instance_id FROM activity').all()).toEqual([{ instance_id: 'ins_B' }]);
    expect(db.prepare('SELECT count(*) AS n FROM remote_instances').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT instance_id FROM activity_heads').all()).toEqual([{ instance_id: 'ins_B' }]);
    db.close();
  });

  it('refuses a database whose applied migration was edited', () => {
    const file = dbFile();
    openDatabase(file).close();
    const db = new Database(file);
    const edited = migrations.map((m, i) => (i === 0 ? { ...m, sql: `${m.sql}\n-- edited` } : m));
    expect(() => migrate(db, edited)).toThrow(MigrationError);
    expect(() => migrate(db, edited)).toThrow(/changed after it was applied/);
    db.close();
  });

  it('refuses a database written by a newer Steward', () => {
    const file = dbFile();
    const db = openDatabase(file);
    db.prepare("INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (999, '0999_future', 'x', '2030-01-01T00:00:00.000Z')").run();
    db.close();
    expect(() => openDatabase(file)).toThrow(/newer Steward/);
  });

  it('rolls a failing migration back completely', () => {
    const file = dbFile();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const db = new Database(file);
    const broken: Migration = { version: 1, name: '0001_broken', sql: 'CREATE TABLE half (id INTEGER); INSERT INTO nowhere VALUES (1);' };
    expect(() => migrate(db, [broken])).toThrow();
    expect(tables(db)).toEqual(['schema_migrations']);
    db.close();
  });
});

describe('the database file', () => {
  it('is WAL, has foreign keys on, and lives in a 0700 folder as a 0600 file', () => {
    const file = dbFile();
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    db.close();
  });

  it('tightens a folder and file that were too open', () => {
    const file = dbFile();
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, '', { mode: 0o644 });
    openDatabase(file).close();
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});
