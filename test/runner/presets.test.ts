// CLI presets: the real spawn-and-parse path, with a fake CLI on PATH playing each tool's
// documented JSON event stream and refusing to run without the flags Steward must pass.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/agents');
let t: TestCore;
let bin: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-fake-cli-');
  for (const name of ['claude', 'codex', 'gemini', 'goose', 'opencode']) {
    fs.writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${path.join(fixtures, 'fake-cli.mjs')}" "$@"\n`, { mode: 0o755 });
  }
});
afterAll(() => t.close());

async function runOn(preset: string, fixture: string, flags: string[], prompt: string, env: Record<string, string> = {}) {
  const agent = {
    provider: 'command',
    preset,
    env: { PATH: `${bin}:${process.env.PATH}`, FAKE_CLI_FIXTURE: path.join(fixtures, fixture), FAKE_CLI_FLAGS: JSON.stringify(flags), FAKE_CLI_ENV: JSON.stringify(env) },
  };
  const { instance } = (await t.api('POST', '/api/instances', { name: preset, agent })).body;
  const { automation } = (await t.api('POST', '/api/automations', { name: preset, prompt, cronExpression: '@yearly', instanceId: instance.id })).body;
  const { run } = (await t.api('POST', `/api/automations/${automation.id}/run`)).body as { run: Run };
  const now = await settled(t, run.id);
  const thread = (await t.api('GET', `/api/threads/${automation.threadId}`)).body.thread;
  const activity = t.core.store.db.prepare<[string], { kind: string; display_text: string }>('SELECT kind, display_text FROM activity WHERE run_id = ? ORDER BY line').all(run.id);
  return { run: now, messages: thread.messages.map((m: { role: string; content: string }) => [m.role, m.content]), activity };
}

describe('claude-code', () => {
  it('runs claude unattended and turns its stream-json into the transcript', async () => {
    const { run, messages, activity } = await runOn('claude-code', 'claude-code.jsonl', ['-p', '--output-format', 'stream-json', '--verbose', '--dangerously-skip-permissions'], 'CI failed on main');
    expect(run.status).toBe('succeeded');
    expect(messages).toEqual([
      ['user', 'CI failed on main'],
      ['system', 'Claude Code started (claude-sonnet-4-5)'],
      ['assistant', 'I will look at the log for: CI failed on main'],
      ['tool', 'Bash {"command":"tail -n 2 ci.log"}'],
      ['tool', 'FAIL test/api.test.ts\n1 failed'],
      ['assistant', 'One test fails in test/api.test.ts.'],
      ['system', 'Claude Code finished — 1,234 tokens in, 567 out, $0.0123, 2 turns'],
    ]);
    expect(activity.map((line) => line.kind)).toEqual(['user', 'system', 'assistant', 'tool', 'tool', 'assistant', 'system', 'system']);
    expect(activity.at(-1)!.display_text).toMatch(/^Run succeeded after/);
  });
});

describe('codex', () => {
  it('runs codex exec --json unattended and turns its items into the transcript', async () => {
    const { run, messages } = await runOn('codex', 'codex.jsonl', ['exec', '--json', '--dangerously-bypass-approvals-and-sandbox', '--skip-git-repo-check', '-'], 'CI failed on main');
    expect(run.status).toBe('succeeded');
    expect(messages).toEqual([
      ['user', 'CI failed on main'],
      ['system', 'Codex started (thread 0199a213-81c0-7800-8aa1-bbab2a035a53)'],
      ['system', 'Codex reasoning: **Looking at the log**'],
      ['tool', 'shell {"command":"bash -lc \'tail -n 2 ci.log\'"}'],
      ['tool', 'FAIL test/api.test.ts\n1 failed\n'],
      ['assistant', 'For "CI failed on main": one test fails in test/api.test.ts.'],
      ['system', 'Codex finished — 24,763 tokens in, 122 out'],
    ]);
  });
});

describe('gemini', () => {
  it('runs gemini with --yolo and stream-json, joining streamed text into messages', async () => {
    const { run, messages } = await runOn('gemini', 'gemini.jsonl', ['--output-format', 'stream-json', '--yolo'], 'CI failed on main', { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
    expect(run.status).toBe('succeeded');
    expect(messages).toEqual([
      ['user', 'CI failed on main'],
      ['system', 'Gemini started (gemini-2.5-pro)'],
      ['assistant', 'I will read the CI log.'],
      ['tool', 'run_shell_command {"command":"tail -n 2 ci.log"}'],
      ['tool', 'FAIL test/api.test.ts\n1 failed'],
      ['tool', 'read_file {"absolute_path":"/workspace/missing.ts"}'],
      ['tool', 'File not found: /workspace/missing.ts'],
      ['system', 'Gemini warning: Loop detection: the same tool was called twice'],
      ['assistant', 'One test fails in test/api.test.ts.'],
      ['system', 'Gemini finished — 1,650 tokens in, 151 out'],
    ]);
  });
});

describe('goose', () => {
  it('runs goose run in auto mode with the prompt on stdin and reads its messages', async () => {
    const { run, messages } = await runOn('goose', 'goose.jsonl', ['run', '--output-format', 'stream-json', '--no-session', '-i', '-'], 'CI failed on main', { GOOSE_MODE: 'auto' });
    expect(run.status).toBe('succeeded');
    expect(messages).toEqual([
      ['user', 'CI failed on main'],
      ['assistant', 'Let me check the log.'],
      ['tool', 'developer__shell {"command":"tail -n 2 ci.log"}'],
      ['system', 'developer: running tail'],
      ['tool', 'FAIL test/api.test.ts\n1 failed'],
      ['tool', 'developer__text_editor {"command":"view","path":"missing.ts"}'],
      ['tool', 'Execution failed: missing.ts does not exist'],
      ['assistant', 'One test fails in test/api.test.ts.'],
      ['system', 'goose finished — 2,048 tokens'],
    ]);
  });
});

describe('opencode', () => {
  it('runs opencode run --format json with every permission granted and sums its steps', async () => {
    const permission = JSON.stringify({ edit: 'allow', bash: 'allow', webfetch: 'allow', external_directory: 'allow' });
    const { run, messages, activity } = await runOn('opencode', 'opencode.jsonl', ['run', '--format', 'json'], 'CI failed on main', { OPENCODE_PERMISSION: permission });
    expect(run.status).toBe('succeeded');
    expect(messages).toEqual([
      ['user', 'CI failed on main'],
      ['assistant', 'Looking into: CI failed on main'],
      ['tool', 'bash {"command":"tail -n 2 ci.log","description":"Show the end of the CI log"}'],
      ['tool', 'FAIL test/api.test.ts\n1 failed'],
      ['tool', 'read {"filePath":"/workspace/missing.ts"}'],
      ['tool', 'File not found: /workspace/missing.ts'],
      ['assistant', 'One test fails in test/api.test.ts.'],
      ['system', 'OpenCode finished — 2,100 tokens in, 100 out, $0.0055'],
    ]);
    expect(activity.filter((line) => line.kind === 'tool')).toHaveLength(4);
  });
});

describe('a preset run without its flags', () => {
  it('fails, keeping what the CLI said on stderr', async () => {
    const { run } = await runOn('goose', 'goose.jsonl', ['--flag-steward-never-passes'], 'hello');
    expect(run).toMatchObject({ status: 'failed', error: 'The agent exited with code 9: missing flags: --flag-steward-never-passes', stderr: 'missing flags: --flag-steward-never-passes\n' });
  });
});

describe('a failure the stream reports', () => {
  it('fails the run even when the CLI exits 0 (Gemini after an empty model response)', async () => {
    const { run } = await runOn('gemini', 'gemini-empty-response.jsonl', ['--output-format', 'stream-json', '--yolo'], 'Say nothing');
    expect(run.status).toBe('failed');
    expect(run.error).toBe('Gemini failed: The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.');
  });
});
