// Red team: the CLI's state folder of an instance is the run's to write (issue 29, "What to build"
// 7), and Steward sets it up before each run and takes the user's login into it. A run turns its
// files, and the folder itself, into links to a folder outside and to the user's ~/.bashrc; then
// the next run starts (its setup writes the login again), and ends. Nothing may appear outside, and
// the user's own files and login stay as they were.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, openLab, snapshot } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
const runs: Run[] = [];
let before: Record<string, string> = {};
const texts: string[] = [];

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  before = snapshot(lab.home);
  const instance = await lab.instance(
    { provider: 'command', preset: 'claude-code', command: fixture('redteam/agent-home-links.sh'), env: { IS_SANDBOX: '1', PROBE_OUTSIDE: lab.outside, PROBE_BASHRC: path.join(lab.home, '.bashrc') } },
    { mode: 'sandbox' },
  );
  for (let i = 0; i < 4; i += 1) {
    const run = await lab.run(instance);
    runs.push(run);
    texts.push(await lab.transcript(run));
  }
  if (process.env.REDTEAM_VERBOSE) console.log(runs.map((run) => `${run.status} ${run.error}`), texts.join('\n----\n'));
}, 60_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)("links in the instance's own state folder", () => {
  it('the probe ran each time', () => {
    expect(runs).toHaveLength(4);
  });
  it('nothing is written through them outside', () => {
    expect(fs.readdirSync(lab.outside)).toEqual([]);
  });
  it("the user's home, their login and ~/.bashrc included, is as it was", () => {
    expect(snapshot(lab.home)).toEqual(before);
  });
});
