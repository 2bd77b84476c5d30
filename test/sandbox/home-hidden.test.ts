// A sandboxed run sees the system, its workspace, its CLI's own files and a home of its own, and
// nothing else of the disk: probes look for decoys no list names (~/notes/passwords.txt,
// ~/.bash_history, a kube config moved by KUBECONFIG to a folder outside the home, /etc/shadow),
// from a CLI installed the way people install them (under ~/.nvm, its interpreter found on PATH
// there too, its package's files and a hoisted dependency beside it), which must still run. The
// same probe with the sandbox off finds every decoy: each probe can succeed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const probe = path.resolve(import.meta.dirname, '../fixtures/sandbox/home-probe.sh');
const skip = lacks('sandbox');

let t: TestCore;
let home: string;
let outside: string;
let nodeBin: string;

/** A CLI as npm puts it under ~/.nvm: bin/fake-cli → ../lib/node_modules/fake-cli/cli.sh, run by an interpreter of its own beside it. */
function installFakeCli(): void {
  const prefix = path.join(home, '.nvm/versions/node/v22.12.0');
  nodeBin = path.join(prefix, 'bin');
  const modules = path.join(prefix, 'lib/node_modules');
  fs.mkdirSync(path.join(modules, 'fake-cli/lib'), { recursive: true });
  fs.mkdirSync(path.join(modules, 'fake-dep'), { recursive: true });
  fs.mkdirSync(nodeBin, { recursive: true });
  // The interpreter: a real program, found on PATH by its `#!/usr/bin/env` line, as node is.
  fs.copyFileSync(fs.realpathSync('/bin/sh'), path.join(nodeBin, 'fakenode'));
  fs.chmodSync(path.join(nodeBin, 'fakenode'), 0o755);
  fs.writeFileSync(
    path.join(modules, 'fake-cli/cli.sh'),
    ['#!/usr/bin/env fakenode', 'here=$(dirname "$(readlink -f "$0")")', '. "$here/lib/helper.sh"', '. "$here/../fake-dep/dep.sh"', 'echo "cli-ran: $HELPER $DEP"', 'exec sh "$PROBE_SCRIPT"', ''].join('\n'),
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(modules, 'fake-cli/lib/helper.sh'), 'HELPER=helper\n');
  fs.writeFileSync(path.join(modules, 'fake-dep/dep.sh'), 'DEP=dependency\n');
  fs.symlinkSync('../lib/node_modules/fake-cli/cli.sh', path.join(nodeBin, 'fake-cli'));
}

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  home = tempDir('steward-home-');
  fs.mkdirSync(path.join(home, 'notes'));
  fs.writeFileSync(path.join(home, 'notes/passwords.txt'), 'bank: hunter2\n');
  fs.writeFileSync(path.join(home, '.bash_history'), 'curl -u admin:s3cret https://internal.example\n');
  // A store moved by its variable, to a folder of the disk that is not the home.
  outside = tempDir('steward-srv-');
  fs.mkdirSync(path.join(outside, 'kube'));
  fs.writeFileSync(path.join(outside, 'kube/config'), 'users:\n- user:\n    token: abc123\n');
  installFakeCli();
});

afterAll(async () => {
  await t?.close();
});

async function probeFrom(sandbox: object): Promise<{ instance: Instance; said: () => Promise<Record<string, string>[]>; run: () => Promise<Run> }> {
  const env = { HOME: home, PROBE_HOME: home, KUBECONFIG: path.join(outside, 'kube/config'), PATH: `${nodeBin}:/usr/bin:/bin`, PROBE_SCRIPT: probe };
  const created = await t.api('POST', '/api/instances', { name: 'home probe', agent: { provider: 'command', preset: 'custom', command: 'fake-cli', env }, sandbox });
  expect(created.status).toBe(201);
  const instance = created.body.instance as Instance;
  const runs: Run[] = [];
  return {
    instance,
    async run() {
      const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'look around' })).body as { run: Run };
      runs.push(run);
      return settled(t, run.id);
    },
    async said() {
      return Promise.all(
        runs.map(async (run) => {
          const messages = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread.messages as { role: string; content: string; runId: string | null }[];
          return Object.fromEntries(messages.filter((message) => message.role === 'assistant' && message.runId === run.id).map((message) => message.content.split(': ')));
        }),
      );
    },
  };
}

describe.skipIf(skip)("a sandboxed run's view of the disk", () => {
  it('has its CLI (installed under ~/.nvm) and a home of its own, kept between runs, and nothing of the user\'s home or the rest of the disk', async () => {
    const box = await probeFrom({ mode: 'sandbox' });
    for (let i = 0; i < 2; i++) expect((await box.run()).status).toBe('succeeded');
    const [first, second] = await box.said();
    expect(first).toMatchObject({
      'cli-ran': 'helper dependency',
      notes: 'no',
      'notes-write': 'no',
      history: 'no',
      'home-listing': 'no',
      kubeconfig: 'no',
      'etc-shadow': 'no',
      'etc-passwd': 'yes',
      'own-home': 'yes',
      'home-is-user-home': 'no',
    });
    // Its home is its instance's, in Steward's data folder, and there again at the next run.
    expect([first['own-home-lines'], second['own-home-lines']]).toEqual(['1', '2']);
    expect(fs.readFileSync(path.join(t.dataDir, 'agent-homes', box.instance.id, 'kept.txt'), 'utf8')).toBe('kept\nkept\n');
    expect(fs.existsSync(path.join(home, 'kept.txt'))).toBe(false);
  });

  it('shows what readAllow names, read-only', async () => {
    const box = await probeFrom({ mode: 'sandbox', readAllow: ['~/notes', path.join(outside, 'kube')] });
    expect((await box.run()).status).toBe('succeeded');
    const [said] = await box.said();
    expect(said).toMatchObject({ notes: 'yes', 'notes-write': 'no', kubeconfig: 'yes', history: 'no' });
  });

  it('where its sandbox is off, the same probe finds every decoy: each probe can succeed', async () => {
    const box = await probeFrom({ mode: 'off' });
    expect((await box.run()).status).toBe('succeeded');
    const [said] = await box.said();
    expect(said).toMatchObject({ 'cli-ran': 'helper dependency', notes: 'yes', 'notes-write': 'yes', history: 'yes', 'home-listing': 'yes', kubeconfig: 'yes', 'etc-passwd': 'yes', 'home-is-user-home': 'yes' });
    // /etc/shadow is there for root to read; an ordinary user cannot, sandbox or not.
    expect(said['etc-shadow']).toBe(os.userInfo().uid === 0 ? 'yes' : 'no');
    fs.rmSync(path.join(home, 'kept.txt'), { force: true });
  });
});
