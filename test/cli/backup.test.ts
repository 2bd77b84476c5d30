// `steward backup FILE` while a real daemon runs and writes: the copy opens, is intact and holds
// every row committed before the backup began.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteBinding } from '../../src/main/core/store/database';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { cliResult, root, startDaemon } from '../support/processes';

const folder = tempDir('steward-backup-');
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** The CLI as a child process that does not block this one, so triggers keep flowing meanwhile. */
function cliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main/cli.ts'), ...args], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

describe('steward backup', () => {
  it('copies the database consistently while the daemon takes triggers', async () => {
    const dataDir = path.join(folder, 'data');
    const key = cliResult(['keys', 'create', '--name', 'backup', '--data-dir', dataDir]).stdout.trim().split('\n').at(-1)!;
    const daemon = await startDaemon(dataDir);
    try {
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const created = await fetch(`${daemon.url}/api/webhooks`, { method: 'POST', headers, body: JSON.stringify({ name: 'busy', promptTemplate: 'Look: {{payload}}' }) });
      const { webhook } = (await created.json()) as { webhook: { id: string; triggerUrl: string } };
      const trigger = async (i: number) => {
        const response = await fetch(webhook.triggerUrl, { method: 'POST', body: JSON.stringify({ i }) });
        expect(response.status).toBe(202);
      };
      for (let i = 0; i < 20; i++) await trigger(i);

      const file = path.join(folder, 'steward-backup.db');
      const backup = cliAsync(['backup', file, '--data-dir', dataDir]);
      let finished = false;
      void backup.then(() => (finished = true));
      let during = 0;
      while (!finished) await trigger(1000 + during++);
      const result = await backup;

      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(file);
      expect(result.stdout).toMatch(new RegExp(`\\(\\d+\\.\\d MB, ${fs.statSync(file).size} bytes\\)`));
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(folder).filter((name) => name.includes('.partial-'))).toEqual([]);

      const copy = new Database(file, { readonly: true, ...sqliteBinding() });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(copy.prepare('SELECT name FROM webhooks WHERE id = ?').pluck().get(webhook.id)).toBe('busy');
        const runs = copy.prepare("SELECT count(*) FROM runs WHERE source = 'webhook'").pluck().get() as number;
        // Every trigger answered before the backup began is in it; those during it may or may not be.
        expect(runs).toBeGreaterThanOrEqual(20);
        expect(runs).toBeLessThanOrEqual(20 + during);
        // The user's key; a run under way when the copy was taken may have had a key of its own too.
        expect(copy.prepare('SELECT count(*) FROM api_keys WHERE run_id IS NULL').pluck().get()).toBe(1);
      } finally {
        copy.close();
      }
    } finally {
      await daemon.stop();
    }
  }, 60_000);

  it('works with the daemon stopped, and never overwrites a file', () => {
    const dataDir = path.join(folder, 'quiet');
    expect(cliResult(['keys', 'create', '--name', 'quiet', '--data-dir', dataDir]).status).toBe(0);
    const file = path.join(folder, 'quiet.db');
    expect(cliResult(['backup', file, '--data-dir', dataDir]).status).toBe(0);
    const again = cliResult(['backup', file, '--data-dir', dataDir]);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
    const copy = new Database(file, { readonly: true, ...sqliteBinding() });
    expect(copy.prepare('SELECT name FROM api_keys').pluck().get()).toBe('quiet');
    copy.close();
  }, 60_000);

  it('says what is missing', () => {
    const noFile = cliResult(['backup', '--data-dir', path.join(folder, 'quiet')]);
    expect(noFile.status).toBe(2);
    expect(noFile.stderr).toContain('steward backup FILE');
    const noDatabase = cliResult(['backup', path.join(folder, 'x.db'), '--data-dir', path.join(folder, 'nothing-here')]);
    expect(noDatabase.status).toBe(1);
    expect(noDatabase.stderr).toContain('There is no Steward database');
  });
});
