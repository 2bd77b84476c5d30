// Nothing privileged inside (issue 29, "Why" 1 and "What to build" 1): whoever runs Steward, root
// included, a sandboxed run has no capability, is not uid 0, cannot undo the sandbox's mounts (in its
// own mount namespace or the sandbox's), cannot make a user namespace, and is refused the system
// calls an agent never needs. The same probe in an `off` instance shows which attempts can work
// on this machine as this user: an attempt that cannot work anywhere proves nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lacks } from '../../support/requirements';
import { type Lab, fixture, notAsExpected, openLab } from './lab';

const skip = lacks('sandbox');
let lab: Lab;
let bashrc: string;

beforeAll(async () => {
  if (skip) return;
  lab = await openLab();
  bashrc = fs.readFileSync(path.join(lab.home, '.bashrc'), 'utf8');
});
afterAll(async () => {
  await lab?.close();
});

const refused = [
  'read-shadow',
  'keyctl',
  'bpf',
  'perf-event-open',
  'ptrace-other',
  'chroot',
  'new-user-namespace',
  'new-user-namespace-as-root',
  'new-mount-namespace',
  'mount-tmpfs',
  'cgroup-write',
  'sysctl-write',
  'unshare-umount-ssh',
  'umount-ssh',
  'lazy-umount-data',
  'remount-root-rw',
  'remount-home-rw',
  'write-user-home',
  'core-pattern-write',
  'sysrq-write',
];

describe.skipIf(skip)('a sandboxed run, as whoever runs Steward', () => {
  it('holds no capability, is not root, and cannot undo its mounts or make a namespace', async () => {
    const env = { PROBE_USER_HOME: lab.home, PROBE_DATA_DIR: lab.t.dataDir };
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('privilege-probe.sh'), env }, { mode: 'sandbox' });
    const run = await lab.run(instance);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const said = await lab.said(run);
    const expected = {
      'cap-eff': '0000000000000000',
      'cap-prm': '0000000000000000',
      'cap-bnd': '0000000000000000',
      'no-new-privs': '1',
      // A seccomp filter (mode 2), as the anchors apply.
      seccomp: '2',
      ...Object.fromEntries(refused.map((attempt) => [attempt, 'no'])),
    };
    expect(notAsExpected(said, expected), JSON.stringify(said)).toEqual({});
    expect(said.uid, 'the agent runs as an unprivileged uid inside its user namespace').not.toBe('0');
    // What the probe did not see, the user's files show.
    expect(fs.readFileSync(path.join(lab.home, '.bashrc'), 'utf8')).toBe(bashrc);
  });

  it('where the sandbox is off, the probe reads its own status and writes home: the probe works', async () => {
    const env = { PROBE_USER_HOME: lab.home, PROBE_DATA_DIR: lab.t.dataDir, PROBE_ONLY_HARMLESS: '1' };
    const instance = await lab.instance({ provider: 'command', preset: 'custom', command: fixture('privilege-probe.sh'), env }, { mode: 'off' }, 'open');
    const run = await lab.run(instance);
    expect(run.status, run.error ?? '').toBe('succeeded');
    const said = await lab.said(run);
    expect(said['cap-eff']).toMatch(/^[0-9a-f]{16}$/);
    expect(said.keyctl).toBe('yes');
    expect(said['ptrace-other']).toBe('yes');
    expect(said['write-user-home']).toBe('yes');
    fs.writeFileSync(path.join(lab.home, '.bashrc'), bashrc);
  });
});
