// Steward's MCP server at /mcp, driven by the official SDK client over a real loopback socket:
// the same operations and validation as the HTTP API, behind the same API key.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/main/core/http/app';
import { silentLogger } from '../../src/main/core/logger';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let client: Client;

async function connect(key?: string): Promise<Client> {
  const connected = new Client({ name: 'steward-test', version: '1.0.0' });
  const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` };
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers } }));
  return connected;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text: string }[]).map((part) => part.text).join('');
}

beforeAll(async () => {
  t = await startTestCore();
  client = await connect(t.key);
});
afterAll(async () => {
  await client.close();
  await t.close();
});

describe('MCP over Streamable HTTP', () => {
  it('lists the steward tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['list_automations', 'get_automation', 'create_automation', 'update_automation', 'list_webhooks', 'get_webhook', 'create_webhook', 'update_webhook', 'list_instances', 'send_prompt', 'get_run', 'get_run_messages', 'list_activity', 'ask_human', 'approval_prompt']),
    );
    const create = tools.find((tool) => tool.name === 'create_automation')!;
    expect(create.inputSchema.properties).toHaveProperty('cronExpression');
    // A schedule or a trigger: neither is required on its own.
    expect(create.inputSchema.properties).toHaveProperty('trigger');
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['name', 'prompt']));
    const update = tools.find((tool) => tool.name === 'update_automation')!;
    expect(update.inputSchema.required).toContain('id');
  });

  it('creates an automation that the HTTP API then serves', async () => {
    const result = await client.callTool({ name: 'create_automation', arguments: { name: 'Via MCP', prompt: 'Say hi', cronExpression: '0 9 * * *' } });
    expect(result.isError).toBeFalsy();
    const { automation } = JSON.parse(textOf(result)) as { automation: { id: string } };
    const response = await t.api('GET', `/api/automations/${automation.id}`);
    expect(response.status).toBe(200);
    expect(response.body.automation).toMatchObject({ name: 'Via MCP', cronExpression: '0 9 * * *' });

    const updated = await client.callTool({ name: 'update_automation', arguments: { id: automation.id, enabled: false } });
    expect(JSON.parse(textOf(updated)).automation.enabled).toBe(false);
    const fetched = await client.callTool({ name: 'get_automation', arguments: { id: automation.id } });
    expect(JSON.parse(textOf(fetched)).automation).toMatchObject({ id: automation.id, enabled: false });
  });

  it('answers an invalid call with an error result carrying the API error', async () => {
    const result = await client.callTool({ name: 'create_automation', arguments: { name: 'Bad', prompt: 'x', cronExpression: 'not a cron' } });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(textOf(result)) as { error: { code: string; message: string; field?: string } };
    expect(error.code).toBe('invalid_cron');
    expect(error.field).toBe('cronExpression');
    const unknown = await client.callTool({ name: 'get_automation', arguments: { id: 'aut_nope' } });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain('not_found');
  });

  it('reads instances, runs, their messages and the activity feed', async () => {
    const { instances } = JSON.parse(textOf(await client.callTool({ name: 'list_instances', arguments: {} }))) as { instances: { id: string }[] };
    expect(instances.length).toBeGreaterThan(0);
    const sent = await client.callTool({ name: 'send_prompt', arguments: { instanceId: instances[0].id, prompt: 'hello' } });
    const { run } = JSON.parse(textOf(sent)) as { run: { id: string } };
    const got = await client.callTool({ name: 'get_run', arguments: { id: run.id } });
    expect(JSON.parse(textOf(got)).run.id).toBe(run.id);
    const messages = await client.callTool({ name: 'get_run_messages', arguments: { id: run.id, limit: 10 } });
    expect(messages.isError).toBeFalsy();
    expect(JSON.parse(textOf(messages))).toHaveProperty('messages');
    const activity = await client.callTool({ name: 'list_activity', arguments: { limit: 5 } });
    expect(activity.isError).toBeFalsy();
    expect(JSON.parse(textOf(activity))).toHaveProperty('events');
  });

  it('refuses a missing or wrong API key with 401', async () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const missing = await fetch(`${t.url}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
    expect(missing.status).toBe(401);
    const wrong = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...headers, authorization: 'Bearer stw_wrong' }, body: JSON.stringify(initialize) });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    await expect(connect('stw_wrong')).rejects.toThrow();
  });

  it('is not served by the triggers-only listener the tunnel forwards to', async () => {
    const triggersOnly = await buildHttpApp({ services: t.core.services, dispatch: t.core.dispatch, logger: silentLogger() }, { triggersOnly: true });
    try {
      const response = await triggersOnly.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' }, payload: '{}' });
      expect(response.statusCode).toBe(404);
    } finally {
      await triggersOnly.close();
    }
  });
});
