// Where a prompt's run says it came from (issue 30): "chat" when the app's Chat sends it (it says
// so), "api" for any other caller by default, and always "api" for an agent's prompt, whatever it
// claims; the runs list's source filter finds each by that.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let instanceId: string;
beforeAll(async () => {
  t = await startTestCore();
  const { instance } = (await t.api('POST', '/api/instances', { name: 'Parked', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body;
  await t.core.services.instances.idle();
  // Stopped, so every run stays queued as it was recorded.
  await t.api('POST', `/api/instances/${instance.id}/stop`);
  instanceId = instance.id;
});
afterAll(() => t.close());

const prompt = async (body: Record<string, unknown>): Promise<Run> => {
  const response = await t.api('POST', '/api/runs', { instanceId, ...body });
  expect(response.status).toBe(202);
  return response.body.run;
};

describe('a prompt’s source', () => {
  it('is "chat" when the Chat sends it, "api" otherwise, and the filter finds each', async () => {
    const chat = await prompt({ prompt: 'from the chat', source: 'chat' });
    const continued = await prompt({ prompt: 'and again', source: 'chat', threadId: chat.threadId });
    const script = await prompt({ prompt: 'from a script' });
    expect([chat.source, continued.source, script.source]).toEqual(['chat', 'chat', 'api']);
    const ids = async (source: string) => ((await t.api('GET', `/api/runs?source=${source}`)).body.runs as Run[]).map((run) => run.id);
    expect(await ids('chat')).toEqual([continued.id, chat.id]);
    expect(await ids('api')).toEqual([script.id]);
    expect((await t.api('POST', '/api/runs', { instanceId, prompt: 'x', source: 'automation' })).status).toBe(400);
  });

  it('is "api" for an agent’s prompt, even one that claims to be a chat', async () => {
    const parent = await prompt({ prompt: 'the parent' });
    const { run } = (await t.core.dispatch('runs.create', { body: { instanceId, prompt: 'from an agent', source: 'chat' } }, { scope: 'admin', runId: parent.id, instanceId })) as { run: Run };
    expect(run).toMatchObject({ source: 'api', parentRunId: parent.id });
  });
});
