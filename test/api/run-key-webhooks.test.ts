// A run's key never sees a trigger token: its own instance's webhooks are listed without their
// tokens and trigger URLs, other instances' not at all, over the HTTP API and over /mcp alike. (A
// trigger URL starts a run the run-depth limit cannot see.) Other keys see what they saw.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let runKey: string;
let ownHook: Webhook;
let otherHook: Webhook;

beforeAll(async () => {
  t = await startTestCore();
  // The run outlasts the test: a run's key ends with its run.
  const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };
  const own = (await t.api('POST', '/api/instances', { name: 'own', agent })).body.instance.id;
  const other = (await t.api('POST', '/api/instances', { name: 'other', agent })).body.instance.id;
  ownHook = (await t.api('POST', '/api/webhooks', { name: 'mine', promptTemplate: '{{payload}}', instanceId: own })).body.webhook;
  otherHook = (await t.api('POST', '/api/webhooks', { name: 'theirs', promptTemplate: '{{payload}}', instanceId: other })).body.webhook;
  const run = (await t.api('POST', '/api/runs', { instanceId: own, prompt: 'work' })).body.run;
  runKey = t.core.services.apiKeys.createForRun(run);
});
afterAll(() => t.close());

const asRun = (method: string, route: string, body?: unknown) => t.api(method, route, body, { authorization: `Bearer ${runKey}` });

/** Whether any trigger token, of any webhook, appears in `text`. */
const leaks = (text: string) => [ownHook.token!, otherHook.token!].some((token) => text.includes(token)) || text.includes('/api/webhooks/trigger/');

describe("a run's key and trigger tokens", () => {
  it("lists its own instance's webhooks without tokens or trigger URLs, and no other instance's", async () => {
    const listed = await asRun('GET', '/api/webhooks');
    expect(listed.status).toBe(200);
    expect(listed.body.webhooks.map((webhook: Webhook) => webhook.id)).toEqual([ownHook.id]);
    const [seen] = listed.body.webhooks as Webhook[];
    expect(seen).toMatchObject({ id: ownHook.id, name: 'mine', promptTemplate: '{{payload}}' });
    expect(seen).not.toHaveProperty('token');
    expect(seen).not.toHaveProperty('triggerUrl');
    expect(seen).not.toHaveProperty('publicTriggerUrl');
    expect(leaks(listed.text)).toBe(false);
  });

  it("gets its own webhook without the token; another instance's is unknown (404)", async () => {
    const mine = await asRun('GET', `/api/webhooks/${ownHook.id}`);
    expect(mine.status).toBe(200);
    expect(leaks(mine.text)).toBe(false);
    const theirs = await asRun('GET', `/api/webhooks/${otherHook.id}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe('not_found');
  });

  it('sees no token in what create and update answer, not even for a regenerated token', async () => {
    const made = await asRun('POST', '/api/webhooks', { name: 'made by the run', promptTemplate: '{{payload}}' });
    expect(made.status).toBe(201);
    expect(made.body.webhook).not.toHaveProperty('token');
    const renewed = await asRun('PUT', `/api/webhooks/${ownHook.id}`, { regenerateToken: true });
    expect(renewed.status).toBe(200);
    expect(renewed.body.webhook).not.toHaveProperty('token');
    expect(renewed.text).not.toContain('/api/webhooks/trigger/');
    // The user still sees every token.
    const asUser = await t.api('GET', '/api/webhooks');
    expect(asUser.body.webhooks).toHaveLength(3);
    for (const webhook of asUser.body.webhooks as Webhook[]) expect(webhook.token).toMatch(/\S{20,}/);
    ownHook = asUser.body.webhooks.find((webhook: Webhook) => webhook.id === ownHook.id);
  });

  it('sees the same over MCP', async () => {
    const client = new Client({ name: 'run-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${runKey}` } } }));
    try {
      const listed = await client.callTool({ name: 'list_webhooks', arguments: {} });
      const text = (listed.content as { text: string }[]).map((part) => part.text).join('');
      expect(listed.isError).toBeFalsy();
      expect((JSON.parse(text) as { webhooks: Webhook[] }).webhooks.map((webhook) => webhook.name).sort()).toEqual(['made by the run', 'mine']);
      expect(leaks(text)).toBe(false);
      const theirs = await client.callTool({ name: 'get_webhook', arguments: { id: otherHook.id } });
      expect(theirs.isError).toBe(true);
      expect(leaks((theirs.content as { text: string }[])[0].text)).toBe(false);
    } finally {
      await client.close();
    }
  });
});
