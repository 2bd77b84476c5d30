// Red team recon (not an assertion of the boundary): prints what a sandboxed custom agent sees.
import { afterAll, beforeAll, it } from 'vitest';
import path from 'node:path';
import { lacks } from '../../support/requirements';
import { type Lab, fixtures, openLab } from './lab';

const skip = lacks('sandbox') || !process.env.REDTEAM_RECON;
let lab: Lab;
beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
});
afterAll(async () => {
  await lab?.close();
});
it.skipIf(skip)('recon', async () => {
  const instance = await lab.instance({ provider: 'command', preset: 'custom', command: path.join(fixtures, 'redteam/recon.sh'), stewardTools: true }, { mode: 'sandbox' });
  const started = await lab.t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'go' });
  const run = started.body.run;
  await new Promise((r) => setTimeout(r, 8000));
  console.log(JSON.stringify((await lab.t.api('GET', `/api/runs/${run.id}`)).body.run), await lab.transcript(run));
}, 60_000);
