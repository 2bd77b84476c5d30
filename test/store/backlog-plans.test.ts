// What a trigger, the runner's pump and a budget check ask of the runs table is answered from an
// index that holds only what is asked about: never a walk over every queued run, so that a trigger
// costs the same with 100,000 runs queued as with none (bench: trigger-ingest-backlog). The plans are
// read from the repositories' own statements, on a database with a backlog and no statistics, as a
// fresh install has.
import path from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommitHooks } from '../../src/main/core/store/commit-hooks';
import { openDatabase } from '../../src/main/core/store/database';
import { createApprovalsRepository } from '../../src/main/core/store/repositories/approvals';
import { createRunsRepository } from '../../src/main/core/store/repositories/runs';
import { createSpendRepository } from '../../src/main/core/store/repositories/spend';
import { tempDir } from '../support/temp';

let db: Database.Database;
const statements: string[] = [];

beforeAll(() => {
  db = openDatabase(path.join(tempDir('steward-plans-'), 'steward.db'));
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    statements.push(source);
    return prepare(source);
  });
  createRunsRepository(db, createCommitHooks(db));
  createSpendRepository(db);
  createApprovalsRepository(db, createCommitHooks(db));
  db.exec(`INSERT INTO instances (id, avatar_url, name, slug, status, agent, sandbox, budget, permissions, accepts_prompts_from, workspace_dir, is_default, created_at, updated_at)
           VALUES ('ins_1', '', 'a', 'a', 'stopped', '{}', '{}', '{}', '{}', '[]', '/tmp', 1, 'x', 'x');
           INSERT INTO threads (id, owner_type, owner_id, created_at) VALUES ('thr_1', 'webhook', 'whk_1', 'x');`);
  const insert = prepare("INSERT INTO runs (id, instance_id, thread_id, source, source_id, status, prompt, created_at) VALUES (?, 'ins_1', 'thr_1', 'webhook', 'whk_1', ?, 'p', ?)");
  db.transaction(() => {
    for (let i = 0; i < 5_000; i++) insert.run(`run_${String(i).padStart(5, '0')}`, i % 10 === 0 ? 'succeeded' : 'queued', new Date(1e12 + i).toISOString());
  })();
});
afterAll(() => db.close());

function planOf(fragment: string): string {
  const found = statements.filter((source) => source.includes(fragment));
  expect(found, fragment).toHaveLength(1);
  const source = found[0];
  const parameters = (source.match(/\?/g) ?? []).map(() => 'x');
  const named = Object.fromEntries([...source.matchAll(/@(\w+)/g)].map(([, name]) => [name, 'x']));
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${source}`);
  const rows = (Object.keys(named).length > 0 ? statement.all(named) : statement.all(...parameters)) as { detail: string }[];
  return rows.map((row) => row.detail).join(' | ');
}

describe('the queue is read from indexes, whatever waits in it', () => {
  it.each([
    ['the earliest time a queued run waits for', 'min(start_after)', 'runs_queued_start_after'],
    ['whether an automation or webhook has a run not yet ended', "status IN ('queued', 'running', 'waiting')", 'runs_open_by_source'],
    ["a queued run's place in its instance's queue", 'count(*) AS n FROM runs WHERE instance_id = ?', 'COVERING INDEX runs_queued_by_instance'],
    ["an instance's oldest queued run", "status = 'queued' AND (start_after IS NULL OR start_after <= ?) ORDER BY created_at, id LIMIT 1", 'runs_queued_by_instance'],
    ['the instances free to start one', "SELECT i.id FROM instances i WHERE i.status IN ('running', 'error')", 'runs_running_by_instance'],
    ["what an instance's runs spent in a period", 'FROM runs WHERE instance_id = ? AND created_at >= ?', 'COVERING INDEX runs_spend_by_instance'],
    ["what an automation's runs spent in a period", 'FROM runs WHERE source_id = ? AND created_at >= ? AND created_at < ?', 'COVERING INDEX runs_spend_by_source'],
  ])('%s', (_what, fragment, index) => {
    const plan = planOf(fragment);
    expect(plan).toContain(index);
    expect(plan).not.toMatch(/SCAN runs|TEMP B-TREE/);
  });

  it('the approvals left pending by ended runs, swept at start: read from the pending ones, not from every ended run', () => {
    const plan = planOf('approvals a CROSS JOIN runs r');
    expect(plan).toMatch(/^SCAN a USING INDEX approvals_pending .*\| SEARCH r USING INDEX sqlite_autoindex_runs_1/);
  });

  it('an earlier run with the same Idempotency-Key (a GitHub delivery id): only the runs with that key are read', () => {
    const plan = planOf('idempotency_key = ? AND created_at >= ?');
    expect(plan).toContain('runs_by_idempotency_key (source_id=? AND idempotency_key=?)');
    expect(plan).not.toContain('SCAN runs');
  });
});
