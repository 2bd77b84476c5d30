// Why a run failed, as the runner reads it from what the real CLIs printed when their model server
// refused them (recorded by scripts/record-agent-errors.mjs into test/fixtures/<preset>/errors):
// each recording played back by a CLI of the preset's name, through the real runner, and the
// run's errorClass read back through the API.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyText, resetTimeIn } from '../../src/main/core/agents/error-class';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
let t: TestCore;
let bin: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-replay-cli-');
  const replay = path.join(fixtures, 'agents/replay-cli.mjs');
  for (const name of ['claude', 'codex', 'gemini', 'opencode']) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${replay}" "$@"\n`, { mode: 0o755 });
  }
});
afterAll(() => t.close());

/** The run of a recording played back on an instance of the preset. */
async function replayed(preset: string, recording: string, timeoutSeconds?: number): Promise<Run> {
  const agent = { provider: 'command', preset, timeoutSeconds, env: { PATH: `${bin}:${process.env.PATH}`, REPLAY_RECORDING: path.join(fixtures, preset, 'errors', recording) } };
  const created = await t.api('POST', '/api/instances', { name: `${preset} ${recording}`, agent });
  expect(created.status).toBe(201);
  const sent = await t.api('POST', '/api/runs', { instanceId: created.body.instance.id, prompt: 'Say hello.' });
  return settled(t, sent.body.run.id);
}

// The usage limits reset at the time the scripted server said (1795440000: 2026-11-23 13:20 UTC).
const resetsAt = '2026-11-23T13:20:00.000Z';

const cases: [preset: string, recording: string, errorClass: Run['errorClass']][] = [
  ['claude-code', '429', 'rate_limit'],
  ['claude-code', '529', 'overloaded'],
  ['claude-code', 'drop', 'network'],
  ['claude-code', 'usage', 'usage_limit'],
  ['codex', '429', 'rate_limit'],
  ['codex', '529', 'overloaded'],
  ['codex', 'drop', 'network'],
  ['codex', 'usage', 'usage_limit'],
  ['gemini', '429', 'rate_limit'],
  ['gemini', '529', 'overloaded'],
  ['gemini', 'drop', 'network'],
];

describe('a failed run’s error class, from the real CLIs’ recordings', () => {
  it.each(cases)('%s %s → %s', async (preset, recording, errorClass) => {
    const run = await replayed(preset, recording);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'failed', errorClass });
  });

  // OpenCode 1.18 retries a 429, a 529 and a dropped connection without end, saying nothing: the
  // run's timeout ends it.
  it.each(['429', '529', 'drop'])('opencode %s → timeout, when the run times out', async (recording) => {
    const run = await replayed('opencode', recording, 1);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'timed_out', errorClass: 'timeout' });
  });

  it('keeps the reset time of a usage limit where the CLI said it: Claude Code’s rate_limit_event, Codex’s "try again at"', async () => {
    const claude = await replayed('claude-code', 'usage');
    expect(t.core.store.runs.resetsAt(claude.id)).toBe(resetsAt);
    const codex = await replayed('codex', 'usage');
    // Codex says it in the local time of the machine it runs on, which is Steward's.
    expect(t.core.store.runs.resetsAt(codex.id)).toBe(new Date(2026, 10, 23, 13, 20).toISOString());
  });

  it('leaves a succeeded run unclassified', async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo done'] };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'fine', agent })).body;
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'x' })).body;
    expect(await settled(t, run.id)).toMatchObject({ status: 'succeeded', errorClass: null });
  });

  it('reads a custom agent’s failure from its stderr, and anything unnamed is agent_error', async () => {
    const said = async (stderr: string) => {
      const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `echo '${stderr}' >&2; exit 3`] };
      const { instance } = (await t.api('POST', '/api/instances', { name: stderr.slice(0, 40), agent })).body;
      const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'x' })).body;
      return (await settled(t, run.id)).errorClass;
    };
    expect(await said('Error: 401 Unauthorized: invalid x-api-key')).toBe('auth');
    expect(await said('connect ECONNREFUSED 127.0.0.1:443')).toBe('network');
    expect(await said('TypeError: cannot read properties of undefined')).toBe('agent_error');
  });
});

describe('the fallback classifier', () => {
  it.each([
    ['429 Too Many Requests', 'rate_limit'],
    ['API Error: 529 Overloaded', 'overloaded'],
    ['503 Service Unavailable', 'overloaded'],
    ['request to https://api.example.com failed, reason: getaddrinfo ENOTFOUND api.example.com', 'network'],
    ['socket hang up', 'network'],
    ['Invalid API key · Please run /login', 'auth'],
    ['Not logged in', 'auth'],
    ['Error: 403 Forbidden', 'auth'],
    ['You exceeded your current quota, please check your plan and billing details (429)', 'usage_limit'],
    ['Claude AI usage limit reached', 'usage_limit'],
    ['request timed out', 'timeout'],
    ['Exited: the file was not found', 'agent_error'],
  ] as const)('%s → %s', (text, errorClass) => {
    expect(classifyText(text)).toBe(errorClass);
  });

  it('reads no reset time where none is said', () => {
    expect(resetTimeIn('You’ve hit your usage limit.')).toBeUndefined();
  });
});
