// The watch source in the real daemon, killed with SIGKILL while files keep arriving, then started
// again: every file is handled exactly once (live before the kill, caught up after it), because the
// cursor moves in the transaction that queues the runs.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteBinding } from '../../src/main/core/store/database';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

const total = 300;

describe('watch across kill -9', () => {
  it('handles each file once, whatever the moment of the kill', async () => {
    const dir = tempDir();
    const folder = tempDir('steward-watch-kill-');
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let daemon = await startDaemon(dir);
    try {
      const created = await fetch(`${daemon.url}/api/automations`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'inbox', prompt: 'File {{event.name}}', trigger: { watch: { path: folder, settleMs: 100, debounceMs: 20 } } }),
      });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { automation: { id: string } }).automation.id;
      const source = async () => ((await (await fetch(`${daemon.url}/api/automations/${id}`, { headers })).json()) as { automation: { source: { state: string } } }).automation.source;
      await waitFor(source, { what: 'the source to listen', until: (value) => value.state === 'listening' });

      const db = new Database(path.join(dir, 'steward.db'), { readonly: true, ...sqliteBinding() });
      const fires = () => db.prepare<[string], { event_key: string; state: string; run_id: string | null }>('SELECT event_key, state, run_id FROM fires WHERE automation_id = ?').all(id);
      // Files keep coming; the daemon is killed as soon as some have been handled.
      let written = 0;
      const writer = (async () => {
        for (; written < total; written++) {
          fs.writeFileSync(path.join(folder, `doc-${written}.txt`), `doc ${written}`);
          if (written % 10 === 9) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      await waitFor(() => fires().length, { what: 'some files handled', until: (n) => n > 0, intervalMs: 5 });
      daemon.process.kill('SIGKILL');
      await new Promise((resolve) => daemon.process.once('exit', resolve));
      const beforeKill = fires().length;
      await writer;

      daemon = await startDaemon(dir);
      await waitFor(() => fires().length, { what: `all ${total} files handled`, until: (n) => n >= total, timeoutMs: 60_000 });
      await waitFor(source, { what: 'the source to listen again', until: (value) => value.state === 'listening' });
      const all = fires();
      db.close();
      const files = all.map((fire) => fire.event_key.split(':')[1]);
      expect(new Set(files).size).toBe(total);
      expect(all).toHaveLength(total);
      expect(all.every((fire) => fire.run_id !== null)).toBe(true);
      expect(all.filter((fire) => fire.state === 'fired').length).toBeGreaterThanOrEqual(beforeKill);
      expect(all.some((fire) => fire.state === 'caught-up')).toBe(beforeKill < total);
      // A run the kill interrupted is queued once more by the runner (its own rule): one run per file besides those.
      const runs = ((await (await fetch(`${daemon.url}/api/runs?sourceId=${id}&limit=500`, { headers })).json()) as { runs: { status: string }[] }).runs;
      expect(runs.length - runs.filter((run) => run.status === 'interrupted').length).toBe(total);
    } finally {
      await daemon.stop();
    }
  }, 120_000);
});
