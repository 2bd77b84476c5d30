// /mcp answers what it cannot run as JSON-RPC says: a body that is not JSON text is -32700 (not the
// REST error shape), an unknown tool is the protocol error -32602 (not a tool result).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
let client: Client;
beforeAll(async () => {
  t = await startTestCore();
  client = new Client({ name: 'protocol-errors', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.key}` } } }));
});
afterAll(async () => {
  await client.close();
  await t.close();
});

const post = (body: string | Uint8Array) =>
  request(`${t.url}/mcp`, { method: 'POST', headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body });

describe('/mcp protocol errors', () => {
  it('answers a body that does not parse with JSON-RPC -32700 and id null', async () => {
    const response = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(response.body.error.message).toMatch(/^Parse error/);
  });

  it('answers invalid UTF-8 the same way, naming the byte offset', async () => {
    const response = await post(Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"'), Buffer.from([0xff]), Buffer.from('"}')]));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, data: { code: 'invalid_json' } } });
    expect(response.body.error.message).toContain('offset 34');
  });

  it('answers an unknown tool with JSON-RPC -32602, not a tool result', async () => {
    const call = client.callTool({ name: 'no_such_tool', arguments: {} });
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect(call).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Unknown tool: no_such_tool') });
    // A known tool refused by the contract stays a tool result the model can read.
    const refused = await client.callTool({ name: 'create_automation', arguments: { name: 'x', prompt: 'y', cronExpression: 'nope' } });
    expect(refused.isError).toBe(true);
  });

  it('keeps the REST error shape for the API itself', async () => {
    const response = await t.api('POST', '/api/automations', '{"name": ');
    expect(response.body.error.code).toBe('invalid_json');
  });
});
