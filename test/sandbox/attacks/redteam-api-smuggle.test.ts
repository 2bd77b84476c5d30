// Red team: Steward's API beyond /mcp, from inside a sandboxed run with Steward's tools, through the
// /mcp bridge and the HTTP proxy: pipelined requests after a /mcp one, CL/TE smuggling, path and
// absolute-form spellings, loopback spellings in CONNECT. The key is the run's own (scope `runs`),
// so any path that reaches /api/runs answers with its list: the probe says LEAK.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let said: Record<string, string> = {};
let text = '';

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  const instance = await lab.instance({ provider: 'command', preset: 'custom', command: 'node', args: [fixture('redteam/api-smuggle.mjs')], stewardTools: true }, { mode: 'sandbox', network: ['*'] });
  const run = await lab.run(instance, 'go', 20_000);
  text = await lab.transcript(run);
  said = await lab.said(run);
  if (process.env.REDTEAM_VERBOSE) console.log(text);
}, 40_000);
afterAll(async () => {
  await lab?.close();
});

describe.skipIf(skip)("Steward's API from a sandbox", () => {
  it('the probe ran every attempt', () => {
    expect(text).toContain('== done');
    expect(Object.keys(said).filter((name) => name.startsWith('bridge-')).length).toBeGreaterThan(10);
  });
  it('no attempt reached /api/runs', () => {
    expect(Object.entries(said).filter(([, line]) => line.includes('LEAK'))).toEqual([]);
  });
});
