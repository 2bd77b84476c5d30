// The real daemon on the real clock: an every-minute automation fires at the minute and its run
// lands in its thread; a second daemon, stopped across that same minute and started again, runs
// that fire once, late. Two daemons share one minute boundary, so the wait is at most a minute
// (half a minute on average) rather than two.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/core';
import { type Server, root, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

interface RunView {
  id: string;
  threadId: string;
  status: string;
  scheduledFor: string | null;
  createdAt: string;
}

const dirs = { onTime: tempDir('steward-daemon-'), late: tempDir('steward-daemon-') };
const daemons = new Set<Server>();
afterAll(async () => {
  for (const daemon of daemons) await daemon.stop();
  for (const dir of Object.values(dirs)) fs.rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));
const nextMinute = (at: number) => Math.floor(at / 60_000) * 60_000 + 60_000;
/** Room before the minute for creating both automations and stopping one daemon, on a busy machine. */
const setupMs = 10_000;

/** `steward keys create`, without blocking, so that both folders get their key at once. */
async function createKey(dataDir: string): Promise<string> {
  const cli = path.join(root, 'src/main/cli.ts');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', cli, 'keys', 'create', '--name', 'ci', '--data-dir', dataDir], { cwd: root });
  return stdout.trim().split('\n').at(-1)!;
}

async function start(dataDir: string, key: string) {
  const daemon = await startDaemon(dataDir);
  daemons.add(daemon);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  return {
    daemon,
    async createMinutely() {
      const created = await fetch(`${daemon.url}/api/automations`, { method: 'POST', headers, body: JSON.stringify({ name: 'Minutely', prompt: 'tick', cronExpression: '* * * * *' }) });
      return ((await created.json()) as { automation: { id: string; threadId: string; nextRuns: string[] } }).automation;
    },
    async runsOf(automationId: string) {
      return ((await (await fetch(`${daemon.url}/api/runs?sourceId=${automationId}`, { headers })).json()) as { runs: RunView[] }).runs;
    },
    async stop() {
      await daemon.stop();
      daemons.delete(daemon);
    },
  };
}

describe('the daemon on the real clock', () => {
  it('fires at the minute, and a daemon stopped across that minute runs it once, late, when started again', async () => {
    const [onTimeKey, lateKey] = await Promise.all([createKey(dirs.onTime), createKey(dirs.late)]);
    const [onTime, late] = await Promise.all([start(dirs.onTime, onTimeKey), start(dirs.late, lateKey)]);

    let due = nextMinute(Date.now());
    if (due - Date.now() < setupMs) {
      await sleep(due - Date.now() + 100);
      due += 60_000;
    }
    const [ticking, missed] = await Promise.all([onTime.createMinutely(), late.createMinutely()]);
    expect(Date.parse(ticking.nextRuns[0])).toBe(due);
    expect(Date.parse(missed.nextRuns[0])).toBe(due);
    await late.stop();
    expect(Date.now(), 'stopped before the fire time').toBeLessThan(due);

    const first = await waitFor(async () => (await onTime.runsOf(ticking.id)).find((run) => run.scheduledFor), { what: 'the first fire', timeoutMs: setupMs + 65_000, intervalMs: 250 });
    expect(Date.parse(first.scheduledFor!)).toBe(due);
    expect(first.threadId).toBe(ticking.threadId);
    expect(Date.parse(first.createdAt) - due).toBeLessThan(2_000);

    await sleep(due + 1_500 - Date.now());
    const restarted = await start(dirs.late, lateKey);
    const runs = await restarted.runsOf(missed.id);
    expect(runs).toHaveLength(1);
    expect(Date.parse(runs[0].scheduledFor!)).toBe(due);
    expect(runs[0].threadId).toBe(missed.threadId);
    expect(Date.parse(runs[0].createdAt)).toBeGreaterThan(due + 1_000);
  }, 150_000);
});
