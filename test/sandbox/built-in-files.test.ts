// The built-in agent's file tools against a workspace a run prepared (its shell can make links and
// FIFOs there): a write through a dangling link never lands outside, a FIFO is refused at once
// instead of holding the tool (and a thread of Steward's) forever, and in a sandboxed instance the
// tools see what its sandbox lets it see: a path of its readDeny inside the workspace stays unread.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { lacks } from '../support/requirements';
import { settled } from '../support/runs';

const skip = lacks('sandbox');

let t: TestCore;
let model: OpenAiServer;
let releaser: ChildProcess | undefined;

beforeAll(async () => {
  if (skip) return;
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
});
afterEach(() => {
  releaser?.kill('SIGKILL');
  releaser = undefined;
});
afterAll(async () => {
  await model?.close();
  await t?.close();
});

const call = (name: string, args: object) => ({ name, argumentPieces: [JSON.stringify(args)] });

async function filesAgent(sandbox: object): Promise<Instance> {
  const created = await t.api('POST', '/api/instances', { name: 'files', agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['files'] }, sandbox });
  expect(created.status).toBe(201);
  const instance = created.body.instance as Instance;
  fs.mkdirSync(instance.workspaceDir, { recursive: true });
  return instance;
}

/** One turn of tool calls, then "Done."; the tools' results as the model got them. */
async function toolResults(instance: Instance, calls: ReturnType<typeof call>[]): Promise<{ run: Run; results: string[] }> {
  const before = model.requests.length;
  model.script([{ toolCalls: calls }, { text: ['Done.'] }]);
  const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'use the files' })).body as { run: Run };
  const finished = await settled(t, run.id, 20_000);
  const results = (model.requests[before + 1]?.body.messages ?? []).filter((message) => message.role === 'tool').map((message) => message.content ?? '');
  return { run: finished, results };
}

describe.skipIf(skip)('the built-in agent\'s file tools', () => {
  for (const mode of ['sandbox', 'off'] as const) {
    it(`never write through a dangling link the run left in the workspace (${mode})`, async () => {
      const instance = await filesAgent({ mode });
      const outside = tempDir('steward-outside-');
      fs.symlinkSync(path.join(outside, 'planted.txt'), path.join(instance.workspaceDir, 'notes.txt'));
      const { run, results } = await toolResults(instance, [call('write_file', { path: 'notes.txt', content: 'written' }), call('write_file', { path: 'fine.txt', content: 'fine' })]);
      expect(run.status).toBe('succeeded');
      expect(fs.readdirSync(outside)).toEqual([]);
      expect(results[0]).toMatch(/^Error: notes\.txt /);
      expect(results[1]).toBe('Wrote 4 bytes to fine.txt.');
      expect(fs.readFileSync(path.join(instance.workspaceDir, 'fine.txt'), 'utf8')).toBe('fine');
    });

    it(`refuse a FIFO at once instead of waiting on it forever (${mode})`, async () => {
      const instance = await filesAgent({ mode });
      const fifo = path.join(instance.workspaceDir, 'report.txt');
      execFileSync('mkfifo', [fifo]);
      // Where a read blocks on it, a writer comes after 8 s, so that the test ends (failing) rather than hangs.
      releaser = spawn('sh', ['-c', 'sleep 8; timeout 20 sh -c \'echo late > "$0"\' "$0"', fifo], { stdio: 'ignore' });
      const started = Date.now();
      const { run, results } = await toolResults(instance, [call('read_file', { path: 'report.txt' }), call('list_files', {})]);
      expect(run.status).toBe('succeeded');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(results[0]).toBe('Error: report.txt is not a regular file.');
      // Listed (inside a sandbox, beside the empty read-only placeholders of the startup files it may not create).
      expect(results[1].split('\n')).toContain('report.txt');
    });
  }

  it('see what the sandbox lets the agent see: a readDeny path inside the workspace stays unread', async () => {
    const workspaceDir = tempDir('steward-workspace-');
    fs.mkdirSync(path.join(workspaceDir, 'private'));
    fs.writeFileSync(path.join(workspaceDir, 'private/token.txt'), 'the-users-token');
    fs.writeFileSync(path.join(workspaceDir, 'readme.txt'), 'hello');
    const created = await t.api('POST', '/api/instances', {
      name: 'denied',
      workspaceDir,
      agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['files'] },
      sandbox: { mode: 'sandbox', readDeny: [path.join(workspaceDir, 'private')] },
    });
    expect(created.status).toBe(201);
    const { run, results } = await toolResults(created.body.instance as Instance, [call('read_file', { path: 'private/token.txt' }), call('read_file', { path: 'readme.txt' }), call('list_files', { path: 'private' })]);
    expect(run.status).toBe('succeeded');
    expect(results.join('\n')).not.toContain('the-users-token');
    expect(results[0]).toMatch(/^Error: private\/token\.txt /);
    expect(results[1]).toBe('hello');
    expect(results[2]).toBe('(empty)');
  });
});
