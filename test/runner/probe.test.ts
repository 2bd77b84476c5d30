// Refusals are loud: a preset that cannot run as configured is an instance in error with the
// remedy (Claude Code as root without IS_SANDBOX=1, a CLI that answers --version with a usage
// error), and a failed run's error quotes the CLI's own last words on stderr.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance } from '../../src/shared/contract';
import { type TestCore, sandboxedTag, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
let bin: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-probe-cli-');
  fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\n[ "$1" = "--version" ] && echo "2.1.3 (Claude Code)"\n', { mode: 0o755 });
  // A CLI of another name, or too old to know the flag: a usage error, at once.
  fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\necho "error: unexpected argument \'$1\' found" >&2\necho "Usage: codex [OPTIONS]" >&2\nexit 2\n', { mode: 0o755 });
  // A CLI without a version to tell and nothing wrong with its arguments.
  fs.writeFileSync(path.join(bin, 'goose'), '#!/bin/sh\necho "no version here" >&2\nexit 1\n', { mode: 0o755 });
});
afterAll(() => {
  fs.rmSync(bin, { recursive: true, force: true });
  return t.close();
});

async function probed(agent: object, sandbox?: object): Promise<Instance> {
  const { instance } = (await t.api('POST', '/api/instances', { name: 'probed', agent, sandbox })).body as { instance: Instance };
  const current = async () => (await t.api('GET', `/api/instances/${instance.id}`)).body.instance as Instance;
  return waitFor(current, { what: `instance ${instance.id} to be probed`, until: (each) => each.status !== 'provisioning' });
}

describe('the probe', () => {
  const root = process.getuid?.() === 0;

  it.runIf(root)('refuses Claude Code as root on the host without IS_SANDBOX=1, naming the remedy; in Steward\'s sandbox it is set for it', async () => {
    const host = { mode: 'off' };
    const refused = await probed({ provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude') }, host);
    expect(refused.status).toBe('error');
    expect(refused.statusReason).toMatch(/^Claude Code refuses --dangerously-skip-permissions as root: set IS_SANDBOX=1 in the agent's env .* or run Steward as another user\.$/);

    const notQuite = await probed({ provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude'), env: { IS_SANDBOX: 'true' } }, host);
    expect(notQuite.status).toBe('error');

    const told = await probed({ provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude'), env: { IS_SANDBOX: '1' } }, host);
    expect(told).toMatchObject({ status: 'running', statusReason: null, imageTag: 'claude-code@2.1.3 · host' });

    const sandboxed = await probed({ provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude') });
    expect(sandboxed).toMatchObject({ status: 'running', statusReason: null, imageTag: sandboxedTag('claude-code@2.1.3') });
  });

  it.skipIf(root)('takes Claude Code as it is when Steward does not run as root (the root case needs root)', async () => {
    const instance = await probed({ provider: 'command', preset: 'claude-code', command: path.join(bin, 'claude') });
    expect(instance).toMatchObject({ status: 'running', imageTag: sandboxedTag('claude-code@2.1.3') });
  });

  it('reports a CLI that answers --version with a usage error, quoting it', async () => {
    const instance = await probed({ provider: 'command', preset: 'codex', env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(instance.status).toBe('error');
    expect(instance.statusReason).toBe(`codex --version exited with a usage error: "error: unexpected argument '--version' found"; check that the agent's command is the codex CLI.`);
  });

  it('takes a CLI that tells no version but has no usage error as of unknown version', async () => {
    const instance = await probed({ provider: 'command', preset: 'goose', env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(instance).toMatchObject({ status: 'running', imageTag: sandboxedTag('goose@unknown') });
  });
});

describe('a failed run', () => {
  async function runOn(agent: object) {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'failing', agent })).body;
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'p' })).body;
    return settled(t, run.id);
  }

  it("quotes the CLI's last stderr line with its exit code", async () => {
    const run = await runOn({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo boom >&2; exit 3'] });
    expect(run).toMatchObject({ status: 'failed', error: 'The agent exited with code 3: boom', stderr: 'boom\n' });
  });

  it('quotes the message, not the stack trace or the runtime trailer', async () => {
    const script = 'process.stderr.write("warming up\\n"); throw new Error("--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons")';
    const run = await runOn({ provider: 'command', preset: 'custom', command: process.execPath, args: ['-e', script] });
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/^The agent exited with code 1: Error: --dangerously-skip-permissions cannot be used with root\/sudo privileges for security reasons$/);
    expect(run.error).not.toMatch(/Node\.js v|\bat /);
  });

  it('says only the exit code when stderr is empty', async () => {
    const run = await runOn({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'exit 4'] });
    expect(run).toMatchObject({ status: 'failed', error: 'The agent exited with code 4.' });
  });
});
