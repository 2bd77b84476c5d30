// Nothing of a run can stall Steward (issue 29, "Why" 9 and "What to build" 8). A run leaves, where
// Steward reads after it or before the next one, files that never end or never open: a FIFO as
// .claude/settings.local.json, .claude/settings.json as a link to a FIFO, a 1 GiB sparse .mcp.json
// (what the run may not write there, a cloned repository can carry: the test puts it there), and a
// FIFO as Gemini's projects.json in the run's own Gemini home (read at the run's end). The next run
// and the run's end keep going, and /api/health answers within 1 s throughout.
//
// The core runs in this test's process: a read that blocks stops the test too. A separate process
// opens every FIFO in the data folder for writing after 8 s, so a blocked read ends (and shows as a
// health answer or a run that took that long) instead of hanging the suite.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Instance, Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, fixture, openLab } from './lab';
import { quietFor } from '../../support/wait';

const skip = lacks('sandbox');
let lab: Lab;
let unblocker: ChildProcess | undefined;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterEach(() => {
  unblocker?.kill('SIGKILL');
  unblocker = undefined;
});
afterAll(async () => {
  await lab?.close();
});

/** After 8 s, and for a minute, opens every FIFO under the data folder and the home for writing (each try at most 0.5 s). */
function unblockLater(): void {
  const script = 'sleep 8; end=$(($(date +%s) + 60)); while [ "$(date +%s)" -lt "$end" ]; do find "$1" "$2" -type p 2>/dev/null | while IFS= read -r f; do timeout 0.5 sh -c \': > "$0"\' "$f" 2>/dev/null; done; sleep 0.2; done';
  unblocker = spawn('sh', ['-c', script, 'sh', lab.t.dataDir, lab.home], { stdio: 'ignore' });
}

/** Sends a prompt and, until the run has ended and a second more, times /api/health every 100 ms: the slowest answer. */
async function runWatchingHealth(instance: Instance, prompt: string): Promise<{ run: Run; slowestHealthMs: number }> {
  let slowest = 0;
  let watching = true;
  const watch = (async () => {
    while (watching) {
      const started = performance.now();
      const response = await fetch(`${lab.t.url}/api/health`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
      slowest = Math.max(slowest, response?.ok ? performance.now() - started : 10_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt });
  expect(started.status, started.text).toBeLessThan(300);
  const run = await settled(lab.t, (started.body.run as Run).id, 30_000);
  // A window, not an event: what the run left behind could still stall the daemon this second.
  await quietFor(1000);
  watching = false;
  await watch;
  return { run, slowestHealthMs: slowest };
}

/** How long a run took from start to end, in ms. */
const took = (run: Run) => Date.parse(run.finishedAt ?? '') - Date.parse(run.startedAt ?? '');

/**
 * What the planting run could not leave, the test leaves: a repository the user clones carries links
 * and big files as well (a FIFO in the workspace's root, which any run may make, is what they point to).
 */
function plantWhatIsMissing(workspace: string): void {
  const at = (name: string) => path.join(workspace, name);
  if (!fs.existsSync(at('.pipe'))) expect(spawnSync('mkfifo', [at('.pipe')]).status).toBe(0);
  fs.mkdirSync(at('.claude'), { recursive: true });
  for (const name of ['.claude/settings.json', '.claude/settings.local.json']) {
    const stat = fs.lstatSync(at(name), { throwIfNoEntry: false });
    if (!stat?.isFIFO() && !stat?.isSymbolicLink()) {
      fs.rmSync(at(name), { force: true });
      fs.symlinkSync('../.pipe', at(name));
    }
  }
  if ((fs.statSync(at('.mcp.json'), { throwIfNoEntry: false })?.size ?? 0) < 2 ** 30) {
    fs.rmSync(at('.mcp.json'), { force: true });
    fs.closeSync(fs.openSync(at('.mcp.json'), 'w'));
    fs.truncateSync(at('.mcp.json'), 2 ** 30);
  }
}

const cli = (preset: string) => ({ provider: 'command', preset, command: fixture('fake-agent-cli.sh') });

describe.skipIf(skip)('files a run leaves for Steward to read', () => {
  it('a FIFO, a link to one and a huge sparse file in the workspace: the next claude-code run and /api/health keep going', async () => {
    const instance = await lab.instance(cli('claude-code'), { mode: 'sandbox' }, 'claude');
    const planting = await lab.run(instance, 'plant-stalls');
    expect(['succeeded', 'failed']).toContain(planting.status);
    plantWhatIsMissing(instance.workspaceDir);
    unblockLater();
    const { run, slowestHealthMs } = await runWatchingHealth(instance, 'nothing');
    expect(slowestHealthMs, 'the slowest /api/health answer while the next run started and ran, in ms').toBeLessThan(1000);
    expect(['succeeded', 'failed']).toContain(run.status);
    expect(took(run), `the next run's time from start to end, in ms (${run.status}: ${run.error ?? ''})`).toBeLessThan(5000);
  });

  it("a FIFO as Gemini's projects.json in its own home: the run's end and /api/health keep going", async () => {
    const instance = await lab.instance(cli('gemini'), { mode: 'sandbox' }, 'gemini');
    unblockLater();
    const { run, slowestHealthMs } = await runWatchingHealth(instance, 'plant-stalls');
    expect(slowestHealthMs, 'the slowest /api/health answer while the run ran and ended, in ms').toBeLessThan(1000);
    expect(['succeeded', 'failed']).toContain(run.status);
    expect(took(run), `the run's time from start to end, in ms`).toBeLessThan(5000);
    const next = await runWatchingHealth(instance, 'nothing');
    expect(next.slowestHealthMs).toBeLessThan(1000);
  });
});
