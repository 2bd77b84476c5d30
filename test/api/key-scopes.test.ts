// Scoped API keys: admin ⊃ runs ⊃ read, checked against each contract operation's scope over HTTP
// and over MCP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/shared/contract';
import { type ApiResponse, type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
const keys: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestCore();
  for (const scope of ['admin', 'runs', 'read']) {
    const created = await t.api('POST', '/api/keys', { name: `${scope} key`, scope });
    expect(created.status).toBe(201);
    expect(created.body.apiKey.scope).toBe(scope);
    keys[scope] = created.body.key;
  }
});
afterAll(() => t.close());

function as(scope: string, method: string, route: string, body?: unknown): Promise<ApiResponse> {
  const init: RequestInit = { method, headers: { authorization: `Bearer ${keys[scope]}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return request(t.url + route, init);
}

const automation = { name: 'Scoped', prompt: 'Say hi', cronExpression: '0 9 * * *' };

async function anInstanceId(): Promise<string> {
  return (await t.api('GET', '/api/instances')).body.instances[0].id;
}

describe('scoped API keys over HTTP', () => {
  it('a read key can GET automations but gets 403 forbidden on POST', async () => {
    expect((await as('read', 'GET', '/api/automations')).status).toBe(200);
    const refused = await as('read', 'POST', '/api/automations', automation);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({ code: 'forbidden', message: "This API key's scope (read) does not allow automations.create; it needs admin." });
    expect((await as('read', 'POST', '/api/runs', { instanceId: await anInstanceId(), prompt: 'hi' })).body.error.code).toBe('forbidden');
  });

  it('a read key can never list keys or secrets, nor read settings', async () => {
    for (const route of ['/api/keys', '/api/secrets', '/api/settings']) {
      expect((await as('read', 'GET', route)).status, route).toBe(403);
    }
    expect((await as('read', 'GET', '/api/system')).status).toBe(200);
  });

  it('a runs key can POST /api/runs and GET runs, but not create automations nor list keys', async () => {
    const created = await as('runs', 'POST', '/api/runs', { instanceId: await anInstanceId(), prompt: 'hello' });
    expect(created.status).toBe(202);
    expect((await as('runs', 'GET', `/api/runs/${created.body.run.id}`)).status).toBe(200);
    expect((await as('runs', 'GET', '/api/runs')).status).toBe(200);
    const refused = await as('runs', 'POST', '/api/automations', automation);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain('scope (runs)');
    expect((await as('runs', 'GET', '/api/keys')).status).toBe(403);
  });

  it('an admin key can do all of it', async () => {
    expect((await as('admin', 'POST', '/api/automations', automation)).status).toBe(201);
    expect((await as('admin', 'POST', '/api/runs', { instanceId: await anInstanceId(), prompt: 'hi' })).status).toBe(202);
    expect((await as('admin', 'GET', '/api/keys')).status).toBe(200);
    expect((await as('admin', 'GET', '/api/settings')).status).toBe(200);
  });

  it('a key is admin unless told otherwise, and the list shows each scope', async () => {
    const created = await t.api('POST', '/api/keys', { name: 'plain' });
    expect(created.body.apiKey.scope).toBe('admin');
    const listed = (await t.api('GET', '/api/keys')).body.apiKeys as { name: string; scope: string }[];
    expect(listed.find((key) => key.name === 'read key')?.scope).toBe('read');
  });

  it('an unknown scope at create is 400 invalid_field', async () => {
    const response = await t.api('POST', '/api/keys', { name: 'x', scope: 'root' });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'invalid_field', field: 'scope' });
  });

  it('every operation has a scope, and the rule holds: GETs read, runs.create and runs.cancel runs, and what an agent\'s run reports', () => {
    // What an agent's run says of itself through its own key: its outcome, a question, a permission.
    const ofRuns = ['runs.create', 'runs.cancel', 'runs.reportOutcome', 'approvals.ask', 'approvals.permission'];
    for (const [name, operation] of Object.entries(operations)) {
      expect(['admin', 'runs', 'read'], name).toContain(operation.scope);
      if (operation.method !== 'GET' && !ofRuns.includes(name)) expect(operation.scope, name).toBe('admin');
    }
    expect(operations['runs.create'].scope).toBe('runs');
    expect(operations['keys.list'].scope).toBe('admin');
    // A webhook's trigger token starts runs without a key: a read key must not see it.
    expect(operations['webhooks.list'].scope).toBe('runs');
    expect(operations['webhooks.get'].scope).toBe('runs');
  });
});

describe('scoped API keys over MCP', () => {
  it('a read key lists only the tools it may call, and create_automation is a tool error forbidden', async () => {
    const client = new Client({ name: 'steward-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${keys.read}` } } }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('list_automations');
      expect(names).not.toContain('create_automation');
      expect(names).not.toContain('send_prompt');
      const listed = await client.callTool({ name: 'list_automations', arguments: {} });
      expect(listed.isError).toBeFalsy();
      const refused = await client.callTool({ name: 'create_automation', arguments: automation });
      expect(refused.isError).toBe(true);
      const text = (refused.content as { text: string }[]).map((part) => part.text).join('');
      expect(JSON.parse(text).error.code).toBe('forbidden');
    } finally {
      await client.close();
    }
  });
});
