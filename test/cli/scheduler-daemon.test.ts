// The real daemon on the real clock: an every-minute automation fires at the minute and its run
// lands in its thread; stopped across a fire time and started again, it runs that fire once, late.
// Bounded: at most two minute boundaries of waiting.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';

const dir = tempDir('steward-daemon-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface RunView {
  id: string;
  threadId: string;
  status: string;
  scheduledFor: string | null;
  createdAt: string;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const nextMinute = (at: number) => Math.floor(at / 60_000) * 60_000 + 60_000;

describe('the daemon on the real clock', () => {
  it('fires every minute, and after a stop across a fire time runs that fire once, late', async () => {
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let daemon = await startDaemon(dir);
    const created = await fetch(`${daemon.url}/api/automations`, { method: 'POST', headers, body: JSON.stringify({ name: 'Minutely', prompt: 'tick', cronExpression: '* * * * *' }) });
    const { automation } = (await created.json()) as { automation: { id: string; threadId: string } };
    const runsOf = async (url: string) =>
      ((await (await fetch(`${url}/api/runs?sourceId=${automation.id}`, { headers })).json()) as { runs: RunView[] }).runs;

    const firstDue = nextMinute(Date.now());
    const first = await until('the first fire', async () => (await runsOf(daemon.url)).find((run) => run.scheduledFor), 75_000);
    expect(Date.parse(first.scheduledFor!)).toBe(firstDue);
    expect(first.threadId).toBe(automation.threadId);
    expect(Date.parse(first.createdAt) - firstDue).toBeLessThan(2_000);

    // Nothing executes runs yet (the runner is its own issue): finish it by hand so the next fire is not an overlap.
    const db = new Database(path.join(dir, 'steward.db'));
    db.prepare("UPDATE runs SET status = 'succeeded' WHERE id = ?").run(first.id);
    db.close();

    await daemon.stop();
    const missed = nextMinute(Date.now());
    await new Promise((resolve) => setTimeout(resolve, missed - Date.now() + 1_500));
    daemon = await startDaemon(dir);
    const runs = await runsOf(daemon.url);
    expect(runs).toHaveLength(2);
    expect(Date.parse(runs[0].scheduledFor!)).toBe(missed);
    expect(Date.parse(runs[0].createdAt)).toBeGreaterThan(missed + 1_000);
    await daemon.stop();
  }, 150_000);
});
