// Red team (availability): an instance whose network names a loopback port below 1024 (a local
// model server on :80 or :443 behind a proxy is common). Inside the sandbox nobody may listen there,
// so its bridge cannot start: the run must still start its agent or end with a reason, in seconds,
// not hang with no word. Found by chance while probing: a run with `127.0.0.1:9` sat in `running`
// with no output for as long as we waited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { settled } from '../../support/runs';
import { type Lab, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let run: Run;
let tookMs = 0;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  const instance = await lab.instance({ provider: 'command', preset: 'custom', command: 'echo', args: ['agent started'] }, { mode: 'sandbox', network: ['127.0.0.1:80'] });
  const started = Date.now();
  const response = await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' });
  const id = (response.body.run as Run).id;
  run = await settled(lab.t, id, 20_000).catch(async () => (await lab.t.api('GET', `/api/runs/${id}`)).body.run as Run);
  tookMs = Date.now() - started;
  if (process.env.REDTEAM_VERBOSE) console.log(run.status, run.error, tookMs, await lab.transcript(run));
  await lab.t.api('POST', `/api/runs/${id}/cancel`);
}, 40_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)('a loopback port below 1024 in network', () => {
  it('the run ends, or its agent starts, within seconds', () => {
    expect(run.status).not.toBe('running');
    expect(tookMs).toBeLessThan(10_000);
  });
});
