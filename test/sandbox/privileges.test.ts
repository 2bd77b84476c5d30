// Nothing privileged inside a sandbox, whoever runs Steward: from a sandboxed run, a probe tries
// what root (or a user who makes itself root in a new user namespace) would do to get out: undo the
// mounts that hide the user's SSH key and Steward's data folder, make / writable and append to a
// file outside, mount a file system, leave its cgroup, talk to the VM's host over vsock. Run as root
// and again as an unprivileged user (`runuser -u <user> -- env HOME=<its home> npx vitest run
// --configLoader runner test/sandbox/privileges.test.ts`: the runner loader writes no bundled config
// into node_modules, which the user may not write). A second check starts Steward's
// own sandbox launcher from a process holding a secret in its session keyring, as a daemon started
// from a login session does.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { sandboxSupport } from '../../src/main/core/sandbox/host-support';
import { sandboxPolicy } from '../../src/main/core/sandbox/policy';
import { openSandbox } from '../../src/main/core/sandbox/sandbox-run';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/privilege-probe.sh');
const skip = lacks('sandbox');
const asRoot = process.getuid?.() === 0;
const who = asRoot ? 'Steward run as root' : 'Steward run as a user';

let t: TestCore;
let home: string;
let outside: string;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  home = tempDir('steward-home-');
  fs.mkdirSync(path.join(home, '.ssh'), { mode: 0o700 });
  fs.writeFileSync(path.join(home, '.ssh/id_ed25519'), '-----BEGIN OPENSSH PRIVATE KEY-----\n', { mode: 0o600 });
  outside = tempDir('steward-outside-');
  fs.writeFileSync(path.join(outside, '.bashrc'), '# the user\'s own\n');
  // A stored secret makes the secret key file exist.
  expect((await t.api('PUT', '/api/secrets/token', { value: 'hunter2' })).status).toBe(200);
});

afterAll(async () => {
  await t?.close();
});

async function probeFrom(sandbox: object): Promise<{ run: Run; said: Record<string, string> }> {
  const env = { HOME: home, PROBE_HOME: home, PROBE_OUTSIDE: outside, PROBE_DATA_DIR: t.dataDir };
  const created = await t.api('POST', '/api/instances', { name: 'probe', agent: { provider: 'command', preset: 'custom', command: probe, env }, sandbox });
  expect(created.status).toBe(201);
  const instance = created.body.instance as Instance;
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'try' })).body as { run: Run };
  const finished = await settled(t, run.id, 30_000);
  const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string }[];
  const said = Object.fromEntries(messages.filter((message) => message.role === 'assistant').map((message) => message.content.split(': ')));
  return { run: finished, said };
}

describe.skipIf(skip)(`a sandboxed run, ${who}`, () => {
  it('has no capability, is not root, and cannot undo or make a mount', async () => {
    const { run, said } = await probeFrom({ mode: 'sandbox' });
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(said['write-workspace']).toBe('yes');
    // One comparison, so that a failure shows every attempt that worked.
    const { uid, capabilities, 'write-workspace': _, ...attempts } = said;
    expect({ root: uid === '0', capabilities, ...attempts }).toEqual({
      root: false,
      capabilities: '0000000000000000',
      'read-key-directly': 'no',
      'unmount-in-new-mount-namespace': 'no',
      'unmount-lazily': 'no',
      'new-user-namespace': 'no',
      'unmount-in-new-user-namespace': 'no',
      'remount-root-writable': 'no',
      'unmount-data-folder': 'no',
      'mount-new-filesystem': 'no',
      'leave-cgroup': 'no',
      vsock: 'no',
    });
    expect(fs.readFileSync(path.join(outside, '.bashrc'), 'utf8')).toBe('# the user\'s own\n');
  }, 40_000);

  it('where its sandbox is off, the probe reads the key: each attempt is one that can tell', async () => {
    const { run, said } = await probeFrom({ mode: 'off' });
    expect(run.status, run.error ?? '').toBe('succeeded');
    expect(said['read-key-directly']).toBe('yes');
    expect(said['write-workspace']).toBe('yes');
  }, 40_000);
});

/** A perl one-liner's output, run in a sandbox opened as a run's is, from a process that first joins a session keyring holding a secret. */
async function inSandboxWithKeyring(secret: string, script: string): Promise<{ code: number | null; output: string }> {
  const support = await sandboxSupport();
  if (!support.ok) throw new Error(support.reason);
  const root = tempDir('steward-keyring-');
  const workspaceDir = path.join(root, 'workspace');
  fs.mkdirSync(workspaceDir);
  const policy = sandboxPolicy({
    sandbox: { mode: 'sandbox', network: [], readAllow: [], readDeny: [], writeAllow: [], envAllow: [] },
    agent: { provider: 'command', preset: 'custom', command: 'perl' },
    env: process.env,
    home: os.homedir(),
    workspaceDir,
    dataDir: path.join(root, 'data'),
    agentHome: path.join(root, 'data/agent-homes/ins_test'),
    otherWorkspaces: [],
    commands: [{ command: 'perl', wholeFolder: false }],
  });
  const box = await openSandbox(policy, support, { runId: 'run_keyring', runsDir: path.join(root, 'runs'), onDenied: () => undefined });
  try {
    const wrapped = box.wrap('perl', ['-e', script], process.env);
    // KEYCTL_JOIN_SESSION_KEYRING, then add_key("user", "steward-decoy", secret) to it (@s is -3), then the sandbox.
    const join = 'require "syscall.ph"; my ($n, $t, $d, $p) = ("decoy", "user", "steward-decoy", shift); syscall(&SYS_keyctl, 1, $n) >= 0 or die "join: $!"; syscall(&SYS_add_key, $t, $d, $p, length $p, -3) >= 0 or die "add: $!"; exec @ARGV';
    const child = spawn('perl', ['-e', join, secret, wrapped.command, ...wrapped.args], { cwd: workspaceDir, env: wrapped.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    return { code, output };
  } finally {
    await box.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

describe.skipIf(skip)(`the daemon's session keyring, ${who}`, () => {
  // KEYCTL_SEARCH (10) the session keyring (-3) for the decoy, then KEYCTL_READ (11) it.
  const read =
    'require "syscall.ph"; my ($t, $d) = ("user", "steward-decoy"); my $id = syscall(&SYS_keyctl, 10, -3, $t, $d, 0); $id >= 0 or do { print "refused: $!\\n"; exit 0 }; my $b = "\\0" x 64; my $n = syscall(&SYS_keyctl, 11, $id, $b, 64); print "read: ", substr($b, 0, $n), "\\n"';

  it('stays out of the sandbox', async () => {
    const { code, output } = await inSandboxWithKeyring('decoy-7f3a9c', read);
    expect(code, output).toBe(0);
    expect(output).not.toContain('decoy-7f3a9c');
    expect(output).toMatch(/^refused: /m);
  });
});
