// What a run can carry off without breaking anything (issue 29, "Why" 5 and 6; "What to build" 5 and
// 6): the environment of the process that started Steward (its own NGROK_AUTHTOKEN, a GITHUB_TOKEN, a
// variable with a made-up name), seen in the agent's environment or in any process's it can see;
// and the files of the user's home and of stores moved out of it by their variable, named
// credentials and decoys alike. The agent's environment is built (its own `env` reaches it, the
// daemon's does not), in an `off` instance too; a sandboxed run sees none of the files. The `off`
// run reads every file: the probe would find each one.
import crypto from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../../src/shared/contract';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, leaked, marker, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
const madeUp = `QZV_${crypto.randomBytes(4).toString('hex').toUpperCase()}_SESSION`;
const daemonEnv = {
  NGROK_AUTHTOKEN: marker('ngrok'),
  GITHUB_TOKEN: marker('github'),
  SECRET_TOKEN: marker('secret-token'),
  [madeUp]: marker('made-up'),
};
const given = marker('agent-env');
const transcripts: Record<'sandbox' | 'off', { run: Run; text: string }> = {} as never;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab({ daemonEnv });
  for (const mode of ['sandbox', 'off'] as const) {
    const env = { PROBE_USER_HOME: lab.home, PROBE_SEARCH: lab.srv, AGENT_GIVEN: given };
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('loot-probe.sh'), env }, { mode }, `loot-${mode}`);
    const run = await lab.run(instance);
    transcripts[mode] = { run, text: await lab.transcript(run) };
  }
});
afterAll(async () => {
  await lab?.close();
});

const inDaemonEnv = (text: string) => Object.entries(daemonEnv).filter(([, value]) => text.includes(value)).map(([name]) => name);

describe.skipIf(skip)("the daemon's environment", () => {
  it('does not reach a sandboxed agent, nor any process it can see; its own env does', () => {
    const { run, text } = transcripts.sandbox;
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(text).toContain('== done');
    expect(text).toContain(`AGENT_GIVEN=${given}`);
    expect(text).toMatch(/^PATH=/m);
    expect(inDaemonEnv(text)).toEqual([]);
  });

  it('does not reach an agent whose sandbox is off either: the environment is built, not inherited', () => {
    const { run, text } = transcripts.off;
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(text).toContain(`AGENT_GIVEN=${given}`);
    expect(inDaemonEnv(text)).toEqual([]);
  });
});

describe.skipIf(skip)("the user's files", () => {
  it('a sandboxed run reads no credential and no decoy in home, nor a store moved by its variable', () => {
    const { text } = transcripts.sandbox;
    const backup = path.join(lab.srv, 'backups/customers.sql');
    expect(leaked(lab, text).filter((file) => file !== backup).map((file) => file.replace(lab.home, '~').replace(lab.srv, '/srv'))).toEqual([]);
  });

  it('a sandboxed run reads nothing outside its workspace that no variable names (a backup in /srv)', () => {
    expect(leaked(lab, transcripts.sandbox.text).map((file) => file.replace(lab.home, '~').replace(lab.srv, '/srv'))).toEqual([]);
  });

  it('the probe finds every one of them where the sandbox is off', () => {
    expect(leaked(lab, transcripts.off.text).sort()).toEqual([...lab.secrets.keys()].sort());
  });
});
