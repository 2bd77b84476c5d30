// Red team (issue 29, "What to build" 8): every file of an instance's own CLI state turned into a
// FIFO by a run, and FIFOs where Claude Code keeps its sessions. Then the next run starts (Steward
// prepares the state folder and may read the session) and ends. /api/health is asked every 100 ms
// with a 2 s timeout while both go: Steward must keep answering, and the runs must end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, fixture, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
const runs: Run[] = [];
let slowestMs = 0;
let unanswered = 0;
let first = '';

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  const instance = await lab.instance({ provider: 'command', preset: 'claude-code', command: fixture('redteam/agent-home-fifos.sh'), env: { IS_SANDBOX: '1' } }, { mode: 'sandbox' });
  let going = true;
  const watch = (async () => {
    while (going) {
      const started = Date.now();
      await fetch(`${lab.t.url}/api/health`, { signal: AbortSignal.timeout(2000) }).then((response) => response.text()).catch(() => (unanswered += 1));
      slowestMs = Math.max(slowestMs, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  for (let i = 0; i < 2; i += 1) {
    const response = await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go', ...(runs[0] ? { threadId: runs[0].threadId } : {}) });
    const id = (response.body.run as Run).id;
    runs.push(await settled(lab.t, id, 15_000).catch(() => ({ id, status: 'running' }) as Run));
  }
  going = false;
  await watch;
  first = await lab.transcript(runs[0]);
  if (process.env.REDTEAM_VERBOSE) console.log(runs.map((run) => `${run.status} ${run.error}`), slowestMs, unanswered);
}, 60_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)('FIFOs in the state folder', () => {
  it('the probe made them', () => {
    expect(first).toMatch(/fifo .*\.credentials\.json/);
  });
  it('Steward keeps answering', () => {
    expect(unanswered).toBe(0);
    expect(slowestMs).toBeLessThan(2000);
  });
  it('both runs end', () => {
    expect(runs.map((run) => run.status)).not.toContain('running');
  });
});
