// The built-in agent against a scripted OpenAI-compatible server on loopback: the real `openai`
// client streams real SSE, tool calls run in a real workspace, and everything lands in the thread
// and the activity log.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { type OpenAiServer, type Turn, startOpenAiServer } from '../support/openai-server';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
let model: OpenAiServer;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
});
afterAll(async () => {
  await t.close();
  await model.close();
});
beforeEach(() => {
  model.requests.length = 0;
});

async function openAiInstance(agent: Record<string, unknown> = {}, name = 'local model') {
  const body = { name, agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', ...agent } };
  const response = await t.api('POST', '/api/instances', body);
  expect(response.status).toBe(201);
  return response.body.instance as { id: string; workspaceDir: string };
}

async function prompt(instanceId: string, text: string): Promise<{ run: Run; messages: [string, string][]; activity: { kind: string; label: string; display_text: string; raw: string }[] }> {
  const created = await t.api('POST', '/api/runs', { instanceId, prompt: text });
  expect(created.status).toBe(202);
  const run = await settled(t, (created.body as { run: Run }).run.id);
  const thread = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread as { messages: { role: string; content: string }[] };
  const activity = t.core.store.db.prepare<[string], { kind: string; label: string; display_text: string; raw: string }>('SELECT kind, label, display_text, raw FROM activity WHERE run_id = ? ORDER BY line').all(run.id);
  return { run, messages: thread.messages.map((m) => [m.role, m.content]), activity };
}

const call = (name: string, args: object, pieces = 3): NonNullable<Turn['toolCalls']>[number] => {
  const json = JSON.stringify(args);
  const size = Math.ceil(json.length / pieces);
  return { name, argumentPieces: Array.from({ length: pieces }, (_, i) => json.slice(i * size, (i + 1) * size)) };
};

describe('the openai agent', () => {
  it('finishes a multi-step task: writes a file through a tool, reads it back and reports it', async () => {
    await t.api('PUT', '/api/secrets/local-llm-key', { value: 'sk-local-7f3a9c' });
    const instance = await openAiInstance({ apiKeyRef: 'local-llm-key' });
    model.script([
      { text: ["I'll write the ", 'report.\nThen check it.'], toolCalls: [call('write_file', { path: 'reports/summary.txt', content: 'All 3 checks passed.' })] },
      { toolCalls: [call('read_file', { path: 'reports/summary.txt' }, 2)] },
      { text: ['Wrote reports/summary.txt: ', 'All 3 checks passed.'] },
    ]);
    const { run, messages, activity } = await prompt(instance.id, 'Summarise the checks into reports/summary.txt');

    // What the API said it used, summed over the steps, is the run's (it reports no cost).
    expect(run).toMatchObject({ status: 'succeeded', inputTokens: 300, outputTokens: 60, costUsd: null });
    expect(fs.readFileSync(path.join(instance.workspaceDir, 'reports/summary.txt'), 'utf8')).toBe('All 3 checks passed.');
    expect(messages).toEqual([
      ['user', 'Summarise the checks into reports/summary.txt'],
      ['system', `OpenAI-compatible agent started (qwen3:8b at ${model.baseUrl})`],
      ['assistant', "I'll write the report.\nThen check it."],
      ['tool', 'write_file {"path":"reports/summary.txt","content":"All 3 checks passed."}'],
      ['tool', 'Wrote 20 bytes to reports/summary.txt.'],
      ['tool', 'read_file {"path":"reports/summary.txt"}'],
      ['tool', 'All 3 checks passed.'],
      ['assistant', 'Wrote reports/summary.txt: All 3 checks passed.'],
      ['system', 'OpenAI-compatible agent finished — 300 tokens in, 60 out, 3 steps'],
    ]);
    // Streamed text reached the activity log line by line, labelled as an API run.
    expect(activity.filter((line) => line.kind === 'assistant').map((line) => line.display_text)).toEqual(["I'll write the report.", 'Then check it.', 'Wrote reports/summary.txt: All 3 checks passed.']);
    expect(new Set(activity.map((line) => line.label))).toEqual(new Set(['api']));

    // The wire: the model saw the tools, each tool result went back, the key came from the secret.
    expect(model.requests).toHaveLength(3);
    expect(model.requests[0].headers.authorization).toBe('Bearer sk-local-7f3a9c');
    expect(model.requests[0].body.stream).toBe(true);
    expect(model.requests[0].body.tools!.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(['shell', 'read_file', 'write_file', 'list_files', 'http_request', 'create_automation', 'send_prompt']));
    const second = model.requests[1].body.messages;
    expect(second.at(-2)).toMatchObject({ role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'write_file', arguments: '{"path":"reports/summary.txt","content":"All 3 checks passed."}' } }] });
    expect(second.at(-1)).toMatchObject({ role: 'tool', content: 'Wrote 20 bytes to reports/summary.txt.' });
    expect(model.requests[2].body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'All 3 checks passed.' });

    // The key is a secret: listed by name only, nowhere in what Steward recorded.
    const listed = await t.api('GET', '/api/secrets');
    expect(listed.body.secrets).toEqual([{ name: 'local-llm-key', createdAt: expect.any(String), updatedAt: expect.any(String) }]);
    expect(listed.text).not.toContain('sk-local');
    const everything = t.core.store.db.prepare<[], { dump: string }>("SELECT group_concat(raw, '') || (SELECT group_concat(content, '') FROM messages) AS dump FROM activity").get()!.dump;
    expect(everything).not.toContain('sk-local-7f3a9c');
    const database = fs.readFileSync(path.join(t.dataDir, 'steward.db')).toString('latin1') + fs.readFileSync(path.join(t.dataDir, 'steward.db-wal')).toString('latin1');
    expect(database).not.toContain('sk-local-7f3a9c');
  });

  it('refuses paths that leave the workspace, directly or through a symbolic link, and tells the model', async () => {
    const instance = await openAiInstance({ tools: ['files'] }, 'confined');
    fs.mkdirSync(instance.workspaceDir, { recursive: true });
    fs.symlinkSync('/etc', path.join(instance.workspaceDir, 'etc-link'));
    model.script([
      { toolCalls: [call('read_file', { path: '../../../../etc/hostname' }), call('write_file', { path: 'etc-link/steward-was-here', content: 'x' })] },
      { text: ['I cannot leave the workspace.'] },
    ]);
    const { run, messages } = await prompt(instance.id, 'read /etc/hostname');
    expect(run.status).toBe('succeeded');
    expect(fs.existsSync('/etc/steward-was-here')).toBe(false);
    expect(model.requests[0].body.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'write_file', 'list_files']);
    const results = model.requests[1].body.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toEqual([expect.stringMatching(/^Error: \.\.\/\.\.\/\.\.\/\.\.\/etc\/hostname is outside the workspace/), expect.stringMatching(/^Error: etc-link\/steward-was-here is outside the workspace/)]);
    expect(messages.filter(([role]) => role === 'tool')).toHaveLength(4);
  });

  it('runs shell commands in the workspace and manages Steward through the steward tools, as its run: its own instance, and one that accepts its prompts', async () => {
    const manager = await openAiInstance({ tools: ['shell', 'steward'] }, 'manager');
    const helper = (await t.api('POST', '/api/instances', { name: 'echo helper', agent: { provider: 'command', preset: 'custom', command: 'cat' }, acceptsPromptsFrom: [manager.id] })).body.instance as { id: string };
    model.script([
      {
        toolCalls: [
          call('shell', { command: 'pwd; echo made > made.txt; ls' }),
          call('create_automation', { name: 'Nightly digest', prompt: 'Write the digest', cronExpression: '0 7 * * *', timezone: 'Europe/Berlin' }),
          call('create_automation', { name: 'Broken', prompt: 'x', cronExpression: 'every day at 7' }),
          call('send_prompt', { instanceId: helper.id, prompt: 'hello from the manager' }),
          call('create_automation', { name: 'Elsewhere', prompt: 'x', cronExpression: '0 7 * * *', instanceId: helper.id }),
        ],
      },
      { text: ['Done.'] },
    ]);
    const { run } = await prompt(manager.id, 'Set up the nightly digest');
    expect(run.status).toBe('succeeded');
    const results = model.requests[1].body.messages.filter((message) => message.role === 'tool').map((message) => message.content ?? '');
    // In its sandbox, the placeholders that keep a run from creating OpenCode's project config show while the run lasts.
    expect(results[0]).toBe(`exit code 0\n${fs.realpathSync(manager.workspaceDir)}\nmade.txt\nopencode.json\nopencode.jsonc`);
    expect(JSON.parse(results[1])).toMatchObject({ automation: { name: 'Nightly digest', timezone: 'Europe/Berlin', enabled: true, nextRuns: expect.any(Array) } });
    expect(results[2]).toMatch(/^Error: .*cron/i);
    const sent = JSON.parse(results[3]) as { run: Run };
    expect(sent.run).toMatchObject({ instanceId: helper.id, source: 'api', prompt: 'hello from the manager' });
    // Accepting its prompts is not handing it the instance: an automation there is refused, as if the instance were not there.
    expect(results[4]).toBe(`Error: No instance ${helper.id}.`);

    const automations = (await t.api('GET', '/api/automations')).body.automations as { name: string }[];
    expect(automations.map((automation) => automation.name)).toEqual(['Nightly digest']);
    const helperRun = await settled(t, sent.run.id);
    expect(helperRun.status).toBe('succeeded');
    const helperThread = (await t.api('GET', `/api/threads/${helperRun.threadId}`)).body.thread;
    expect(helperThread.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'hello from the manager' });
  });

  it('reports its run\'s outcome through the steward tools', async () => {
    const checker = await openAiInstance({ tools: ['steward'] }, 'checker');
    model.script([{ toolCalls: [call('report_outcome', { status: 'needs_attention', summary: 'Two certificates expire this week.' })] }, { text: ['Reported.'] }]);
    const { run } = await prompt(checker.id, 'Check the certificates');
    expect(run).toMatchObject({ status: 'succeeded', outcome: 'needs_attention', summary: 'Two certificates expire this week.' });
    const offered = (model.requests[0].body as { tools?: { function: { name: string; description: string } }[] }).tools?.find((tool) => tool.function.name === 'report_outcome');
    expect(offered?.function.description).toMatch(/needs_attention/);
  });

  it('stops after maxSteps, fails clearly when the server or the secret is missing, and cancels mid-stream', async () => {
    const looping = await openAiInstance({ maxSteps: 2, tools: ['files'] }, 'looping');
    model.script(() => ({ toolCalls: [call('list_files', {})] }));
    const stepped = await prompt(looping.id, 'loop forever');
    expect(stepped.run).toMatchObject({ status: 'failed', error: 'The agent used all its 2 steps without finishing; raise maxSteps or split the task.' });
    expect(model.requests).toHaveLength(2);

    const unreachable = (await t.api('POST', '/api/instances', { name: 'nowhere', agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } })).body.instance as { id: string };
    const refused = await prompt(unreachable.id, 'hi');
    expect(refused.run).toMatchObject({ status: 'failed', error: expect.stringContaining('Could not reach the model server at http://127.0.0.1:9/v1') });

    const keyless = await openAiInstance({ apiKeyRef: 'never-stored' }, 'keyless');
    const missing = await prompt(keyless.id, 'hi');
    expect(missing.run).toMatchObject({ status: 'failed', error: 'No secret named never-stored is stored; add it (PUT /api/secrets/never-stored) or change apiKeyRef.' });

    model.script([{ status: 404 }]);
    const wrongModel = await prompt(looping.id, 'hi');
    expect(wrongModel.run.error).toBe(`The model server at ${model.baseUrl} answered 404: is the model "qwen3:8b" available there?`);

    model.script([{ stall: true }]);
    const created = (await t.api('POST', '/api/runs', { instanceId: looping.id, prompt: 'take your time' })).body as { run: Run };
    await waitFor(() => model.requests.length >= 4, { what: 'the model to be asked four times' });
    const cancelledAt = Date.now();
    expect((await t.api('POST', `/api/runs/${created.run.id}/cancel`)).status).toBe(202);
    expect(await settled(t, created.run.id)).toMatchObject({ status: 'cancelled' });
    expect(Date.now() - cancelledAt).toBeLessThan(3_000);
  });
});

describe('secrets and prompts over the API', () => {
  it('validates secret names and values, and prompt targets', async () => {
    expect((await t.api('PUT', '/api/secrets/has space', { value: 'x' })).body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
    expect((await t.api('PUT', '/api/secrets/ok', { value: '' })).body.error).toMatchObject({ code: 'invalid_field', field: 'value' });
    expect((await t.api('DELETE', '/api/secrets/never-there')).status).toBe(404);
    expect((await t.api('POST', '/api/runs', { instanceId: 'ins_nope', prompt: 'hi' })).body.error).toMatchObject({ code: 'invalid_field', field: 'instanceId' });
    const { automation } = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@yearly' })).body;
    const intoAutomation = await t.api('POST', '/api/runs', { instanceId: automation.instanceId, prompt: 'hi', threadId: automation.threadId });
    expect(intoAutomation.body.error).toMatchObject({ code: 'invalid_field', field: 'threadId' });
    await t.api('PUT', `/api/automations/${automation.id}`, { enabled: false });
  });
});
