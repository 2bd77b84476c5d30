// Red team: a run that prints to stall or bloat Steward (issue 29, "What to build" 8: nothing of a
// run can stall Steward). One line of 64 MiB with no newline, then 300,000 lines as fast as the
// pipe takes them. The test core runs in this process: while each run goes, /api/health is asked
// every 100 ms, and its slowest answer and this process's memory growth are what the run did to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, fixture, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
const seen: Record<string, { run: Run; slowestMs: number; grewMb: number }> = {};

async function flood(kind: 'line' | 'lines') {
  const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('redteam/flood.sh'), env: { PROBE_FLOOD: kind } }, { mode: 'sandbox' }, `flood-${kind}`);
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  let slowestMs = 0;
  let going = true;
  const watch = (async () => {
    while (going) {
      const started = Date.now();
      await fetch(`${lab.t.url}/api/health`).then((response) => response.text());
      slowestMs = Math.max(slowestMs, Date.now() - started);
      peak = Math.max(peak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const started = await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' });
  const runId = (started.body.run as Run).id;
  const run = await settled(lab.t, runId, 60_000).catch(async () => (await lab.t.api('GET', `/api/runs/${runId}`)).body.run as Run);
  going = false;
  await watch;
  await lab.t.api('POST', `/api/runs/${runId}/cancel`);
  seen[kind] = { run, slowestMs, grewMb: Math.round((peak - rssBefore) / 2 ** 20) };
}

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  await flood('line');
  await flood('lines');
  if (process.env.REDTEAM_VERBOSE) console.log(Object.entries(seen).map(([kind, { run, slowestMs, grewMb }]) => `${kind}: ${run.status} ${run.error} slowest ${slowestMs} ms, grew ${grewMb} MiB`));
}, 150_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)('a run that floods its output', () => {
  it('one endless line: Steward keeps answering and does not hold the line', () => {
    expect(seen.line.run.status).not.toBe('running');
    expect(seen.line.slowestMs).toBeLessThan(1000);
    expect(seen.line.grewMb).toBeLessThan(128);
  });
  it('300,000 lines (15 MB): Steward keeps answering, ends the run within a minute, and does not bloat', () => {
    expect(seen.lines.run.status).not.toBe('running');
    expect(seen.lines.slowestMs).toBeLessThan(1000);
    expect(seen.lines.grewMb).toBeLessThan(256);
  });
});
