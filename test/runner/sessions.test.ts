// Threads are conversations: a CLI preset's session is kept per thread and instance and resumed
// with the CLI's own flag when a run continues the thread (chats always; automations and webhooks
// with memory "continue"); the built-in agent is sent the thread's earlier turns instead.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { type OpenAiServer, startOpenAiServer } from '../support/openai-server';
import { settled } from '../support/runs';

const sessionCli = path.resolve(import.meta.dirname, '../fixtures/agents/session-cli.mjs');

let t: TestCore;
let model: OpenAiServer;
let instanceId: string;
let workspaceDir: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  model = await startOpenAiServer();
  const env = { IS_SANDBOX: '1' }; // the claude-code preset refuses root without it
  const { body } = await t.api('POST', '/api/instances', { name: 'sessions', agent: { provider: 'command', preset: 'claude-code', command: sessionCli, env } });
  instanceId = body.instance.id;
  workspaceDir = body.instance.workspaceDir;
});
afterAll(async () => {
  await t.close();
  await model.close();
});

async function finished(response: { status: number; body: { run: Run } }): Promise<Run> {
  expect(response.status).toBeLessThan(300);
  return settled(t, response.body.run.id);
}

const answerOf = async (run: Run) => {
  const { thread } = (await t.api('GET', `/api/threads/${run.threadId}?limit=1000`)).body as { thread: { messages: { runId: string; role: string; content: string }[] } };
  return thread.messages.filter((m) => m.runId === run.id && m.role === 'assistant').map((m) => m.content).join('\n');
};

describe('a chat thread', () => {
  it('resumes the CLI session of its last run, and shows which session each run used', async () => {
    const first = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'remember the word tangerine' }));
    expect(first).toMatchObject({ status: 'succeeded', resumedSessionId: null, sessionId: expect.stringMatching(/^sess-\d+$/) });
    expect(await answerOf(first)).toBe('new session: remember the word tangerine');

    const second = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'which word?', threadId: first.threadId }));
    expect(second).toMatchObject({ status: 'succeeded', resumedSessionId: first.sessionId, sessionId: first.sessionId });
    expect(await answerOf(second)).toBe(`resumed ${first.sessionId}: which word?`);
    const { body } = await t.api('GET', `/api/instances/${instanceId}/activity?limit=1000`);
    expect(body.events.filter((e: { runId: string }) => e.runId === second.id).map((e: { displayText: string }) => e.displayText)).toContain(`Continuing the agent's session ${first.sessionId}`);
  });

  it('starts a new conversation after the CLI could not resume its session (expired or deleted)', async () => {
    const first = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'remember plum' }));
    fs.rmSync(path.join(workspaceDir, '.sessions', first.sessionId!));
    const refused = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'which fruit?', threadId: first.threadId }));
    expect(refused).toMatchObject({ status: 'failed', resumedSessionId: first.sessionId, error: `The agent exited with code 42: Error resuming session: Invalid session identifier "${first.sessionId}"` });
    const next = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'start over', threadId: first.threadId }));
    expect(next).toMatchObject({ status: 'succeeded', resumedSessionId: null });
    expect(await answerOf(next)).toBe('new session: start over');
  });

  it('starts fresh in a new chat', async () => {
    const run = await finished(await t.api('POST', '/api/runs', { instanceId, prompt: 'hello' }));
    expect(run.resumedSessionId).toBeNull();
    expect(await answerOf(run)).toBe('new session: hello');
  });
});

describe('memory of automations and webhooks', () => {
  it('is fresh by default: each fire starts a new session', async () => {
    const { body } = await t.api('POST', '/api/automations', { name: 'daily', prompt: 'check the disk', cronExpression: '@yearly', instanceId });
    expect(body.automation.memory).toBe('fresh');
    const first = await finished(await t.api('POST', `/api/automations/${body.automation.id}/run`));
    const second = await finished(await t.api('POST', `/api/automations/${body.automation.id}/run`));
    expect(second.resumedSessionId).toBeNull();
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(await answerOf(second)).toBe('new session: check the disk');
  });

  it('with memory "continue", each run of an automation resumes the last one', async () => {
    const { body } = await t.api('POST', '/api/automations', { name: 'diary', prompt: 'add a line', cronExpression: '@yearly', instanceId, memory: 'continue' });
    const first = await finished(await t.api('POST', `/api/automations/${body.automation.id}/run`));
    const second = await finished(await t.api('POST', `/api/automations/${body.automation.id}/run`));
    expect(second.resumedSessionId).toBe(first.sessionId);
    expect(await answerOf(second)).toBe(`resumed ${first.sessionId}: add a line`);
    // Switched back to fresh, the next run starts clean again.
    expect((await t.api('PUT', `/api/automations/${body.automation.id}`, { memory: 'fresh' })).body.automation.memory).toBe('fresh');
    const third = await finished(await t.api('POST', `/api/automations/${body.automation.id}/run`));
    expect(third.resumedSessionId).toBeNull();
  });

  it('with memory "continue", each webhook trigger resumes the last one', async () => {
    const { body } = await t.api('POST', '/api/webhooks', { name: 'ci', promptTemplate: 'CI says {{payload}}', instanceId, memory: 'continue' });
    expect(body.webhook.memory).toBe('continue');
    const trigger = async (text: string) => finished({ status: 202, body: (await (await fetch(body.webhook.triggerUrl, { method: 'POST', body: text })).json()) as { run: Run } });
    const first = await trigger('red');
    const second = await trigger('green');
    expect(second.resumedSessionId).toBe(first.sessionId);
    expect(await answerOf(second)).toBe(`resumed ${first.sessionId}: CI says green`);
  });

  it('rejects an unknown memory mode', async () => {
    const response = await t.api('POST', '/api/automations', { name: 'x', prompt: 'p', cronExpression: '@yearly', memory: 'forever' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', field: 'memory' });
  });
});

describe('the built-in agent', () => {
  it('is sent the thread’s earlier turns when a chat continues', async () => {
    const { body } = await t.api('POST', '/api/instances', { name: 'local', agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: [] } });
    await t.core.services.instances.idle();
    model.script([{ text: ['Noted: tangerine.'] }, { text: ['You said tangerine.'] }]);
    const first = await finished(await t.api('POST', '/api/runs', { instanceId: body.instance.id, prompt: 'remember tangerine' }));
    model.requests.length = 0;
    const second = await finished(await t.api('POST', '/api/runs', { instanceId: body.instance.id, prompt: 'what did I say?', threadId: first.threadId }));
    expect(second.status).toBe('succeeded');
    const sent = model.requests[0].body.messages.map((m) => [m.role, m.content]);
    expect(sent.slice(1)).toEqual([
      ['user', 'remember tangerine'],
      ['assistant', 'Noted: tangerine.'],
      ['user', 'what did I say?'],
    ]);
  });

  it('keeps only the newest turns that fit the budget', () => {
    const { store } = t.core;
    const threadId = 'thr_budget';
    store.threads.insert(threadId, 'chat', null, new Date().toISOString());
    for (const [i, content] of ['a'.repeat(30_000), 'b'.repeat(20_000), 'c'.repeat(20_000)].entries()) {
      store.threads.addMessage({ threadId, runId: null, role: i % 2 === 0 ? 'user' : 'assistant', content, createdAt: new Date().toISOString() });
    }
    const turns = store.threads.turnsBefore(threadId, 'run_now', 48_000);
    expect(turns.map((turn) => turn.content[0])).toEqual(['b', 'c']);
  });
});
