// Red team recon (not an assertion of the boundary, and skipped unless REDTEAM_RECON is set): prints
// what a sandboxed custom agent sees of its ids, capabilities, descriptors, mounts, processes,
// environment, folders, sockets and limits.
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
  const run = await lab.run(instance);
  console.log(run.status, run.error, await lab.transcript(run));
}, 60_000);
