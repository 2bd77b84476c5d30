// The built-in agent with MCP servers, through a real core: the official reference servers from
// npm over stdio (server-everything in the settings, server-filesystem per instance), a Streamable
// HTTP server that requires a header from a stored secret, servers that cannot start, and no
// server process left behind by a finished or cancelled run.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { McpServerConfig, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { childPids, everythingServer, filesystemServer, isRunning, type OrdersServer, startOrdersServer } from '../support/mcp';
import { type OpenAiServer, type Turn, startOpenAiServer } from '../support/openai-server';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
let model: OpenAiServer;
let ordersServer: OrdersServer;

const everything: McpServerConfig = { name: 'everything', transport: 'stdio', command: process.execPath, args: [everythingServer] };

beforeAll(async () => {
  [t, model, ordersServer] = await Promise.all([startTestCore({ clock: systemClock }), startOpenAiServer(), startOrdersServer('orders-token-5d1e')]);
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.close(), ordersServer.close()]);
});
beforeEach(async () => {
  model.requests.length = 0;
  expect((await t.api('PATCH', '/api/settings', { mcpServers: [] })).status).toBe(200);
});

async function openAiInstance(name: string, agent: Record<string, unknown> = {}) {
  const response = await t.api('POST', '/api/instances', { name, agent: { provider: 'openai', baseUrl: model.baseUrl, model: 'qwen3:8b', tools: ['files'], ...agent } });
  expect(response.status, response.text).toBe(201);
  return response.body.instance as { id: string; workspaceDir: string };
}

async function prompt(instanceId: string, text: string) {
  const created = await t.api('POST', '/api/runs', { instanceId, prompt: text });
  expect(created.status).toBe(202);
  const run = await settled(t, (created.body as { run: Run }).run.id, 30_000);
  const thread = (await t.api('GET', `/api/threads/${run.threadId}`)).body.thread as { messages: { role: string; content: string }[] };
  const activity = t.core.store.db.prepare<[string], { kind: string; display_text: string; raw: string }>('SELECT kind, display_text, raw FROM activity WHERE run_id = ? ORDER BY line').all(run.id);
  return { run, messages: thread.messages.map((m): [string, string] => [m.role, m.content]), activity };
}

const call = (name: string, args: object): NonNullable<Turn['toolCalls']>[number] => ({ name, argumentPieces: [JSON.stringify(args)] });
const toolNames = (index: number) => (model.requests[index].body.tools ?? []).map((tool) => tool.function.name);
const toolResults = (index: number) => model.requests[index].body.messages.filter((message) => message.role === 'tool').map((message) => message.content);

describe('MCP servers of the built-in agent', () => {
  it('lists the tools of server-everything (stdio, in the settings) and calls one like its own; the server ends with the run', async () => {
    expect((await t.api('PATCH', '/api/settings', { mcpServers: [everything] })).body.settings.mcpServers).toEqual([everything]);
    const instance = await openAiInstance('with everything');
    let serverPids: number[] = [];
    const turns: Turn[] = [{ toolCalls: [call('everything__get-sum', { a: 2, b: 40 }), call('everything__echo', { message: 'hello MCP' })] }, { text: ['2 + 40 is 42.'] }];
    model.script(() => {
      // While the model is asked, the server runs: remember its process to look for it afterwards.
      if (serverPids.length === 0) serverPids = childPids('server-everything');
      return turns.shift() ?? { text: ['done'] };
    });
    const { run, messages, activity } = await prompt(instance.id, 'What is 2 + 40?');

    expect(run.status).toBe('succeeded');
    expect(toolNames(0)).toEqual(expect.arrayContaining(['read_file', 'everything__echo', 'everything__get-sum', 'everything__get-tiny-image']));
    const sum = model.requests[0].body.tools!.find((tool) => tool.function.name === 'everything__get-sum') as unknown as { function: { description: string; parameters: { properties: object } } };
    expect(sum.function.description).toBe('MCP server everything: Returns the sum of two numbers');
    expect(Object.keys(sum.function.parameters.properties)).toEqual(['a', 'b']);
    // The results went back to the model, and into the transcript like a built-in tool's.
    expect(toolResults(1)).toEqual(['The sum of 2 and 40 is 42.', 'Echo: hello MCP']);
    expect(messages).toEqual([
      ['user', 'What is 2 + 40?'],
      ['system', `OpenAI-compatible agent started (qwen3:8b at ${model.baseUrl})`],
      ['system', expect.stringMatching(/^MCP server everything: \d+ tools$/)],
      ['tool', 'everything__get-sum {"a":2,"b":40}'],
      ['tool', 'The sum of 2 and 40 is 42.'],
      ['tool', 'everything__echo {"message":"hello MCP"}'],
      ['tool', 'Echo: hello MCP'],
      ['assistant', '2 + 40 is 42.'],
      ['system', 'OpenAI-compatible agent finished — 200 tokens in, 40 out, 2 steps'],
    ]);
    const started = JSON.parse(activity.find((line) => line.display_text.startsWith('MCP server everything'))!.raw) as { event: { seconds: number } };
    console.log(`server-everything over stdio: connected and listed its tools in ${started.event.seconds} s`);

    expect(serverPids).toHaveLength(1);
    expect(isRunning(serverPids[0])).toBe(false);
  });

  it('reads a workspace file through server-filesystem configured on the instance, which overrides the settings by name', async () => {
    await t.api('PATCH', '/api/settings', { mcpServers: [everything] });
    const instance = await openAiInstance('with files', {
      mcpServers: [
        { name: 'files', transport: 'stdio', command: process.execPath, args: [filesystemServer, '.'] },
        { ...everything, enabled: false },
      ],
    });
    fs.mkdirSync(instance.workspaceDir, { recursive: true });
    fs.writeFileSync(path.join(instance.workspaceDir, 'notes.txt'), 'The deploy key rotates on Fridays.\n');
    model.script([{ toolCalls: [call('files__read_text_file', { path: path.join(instance.workspaceDir, 'notes.txt') }), call('files__read_text_file', { path: '/etc/hostname' })] }, { text: ['Fridays.'] }]);
    const { run, messages } = await prompt(instance.id, 'When does the deploy key rotate?');

    expect(run.status).toBe('succeeded');
    expect(toolNames(0).filter((name) => name.startsWith('everything__'))).toEqual([]);
    expect(toolNames(0)).toEqual(expect.arrayContaining(['files__read_text_file', 'files__list_directory']));
    const [inside, outside] = toolResults(1);
    expect(inside).toBe('The deploy key rotates on Fridays.\n');
    // The server's own refusal (isError) reaches the model as an error, like a built-in tool's.
    expect(outside).toMatch(/^Error: Access denied - path outside allowed directories/);
    expect(messages.filter(([role]) => role === 'system').map(([, text]) => text)).toEqual([expect.stringContaining('agent started'), expect.stringMatching(/^MCP server files: \d+ tools$/), expect.stringContaining('agent finished')]);
  });

  it('calls a Streamable HTTP server with its Authorization header from a stored secret; a wrong or missing secret is a system line', async () => {
    await t.api('PUT', '/api/secrets/orders-token', { value: 'Bearer orders-token-5d1e' });
    const orders = (secret: string): McpServerConfig => ({ name: 'orders', transport: 'http', url: ordersServer.url, headers: { Authorization: secret } });
    await t.api('PATCH', '/api/settings', { mcpServers: [orders('orders-token')] });
    const instance = await openAiInstance('with orders');
    model.script([{ toolCalls: [call('orders__lookup_order', { id: '42' }), call('orders__cancel_order', { id: '42' })] }, { text: ['It shipped.'] }]);
    const { run, messages } = await prompt(instance.id, 'Where is order 42? Cancel it if you can.');

    expect(run.status).toBe('succeeded');
    // Both pages of its tool list were read.
    expect(toolNames(0)).toEqual(['read_file', 'write_file', 'list_files', 'orders__lookup_order', 'orders__cancel_order']);
    expect(toolResults(1)).toEqual(['Order 42: shipped on 2026-11-20', 'Error: Order 42 has shipped; it cannot be cancelled.']);
    expect(messages).toContainEqual(['system', 'MCP server orders: 2 tools']);
    expect(new Set(ordersServer.authorizations)).toEqual(new Set(['Bearer orders-token-5d1e']));
    // The header's value is a secret: it is nowhere in what Steward recorded or answers.
    const recorded = t.core.store.db.prepare<[], { dump: string }>("SELECT group_concat(raw, '') || (SELECT group_concat(content, '') FROM messages) AS dump FROM activity").get()!.dump;
    expect(recorded).not.toContain('orders-token-5d1e');
    expect((await t.api('GET', '/api/settings')).text).not.toContain('orders-token-5d1e');

    await t.api('PUT', '/api/secrets/stale-token', { value: 'Bearer revoked-0000' });
    for (const [secret, reason] of [
      ['stale-token', /^MCP server orders could not start: http:\/\/127\.0\.0\.1:\d+\/mcp answered HTTP 401 \(check the secret its headers name\): Error POSTing to endpoint: {"error":"unauthorized","got":"\[secret\]"}; the run goes on without its tools$/],
      ['never-stored', /^MCP server orders could not start: no secret named never-stored is stored \(for its Authorization header\); the run goes on without its tools$/],
    ] as const) {
      await t.api('PATCH', '/api/settings', { mcpServers: [orders(secret)] });
      model.requests.length = 0;
      model.script([{ text: ['No tools today.'] }]);
      const refused = await prompt(instance.id, 'Where is order 42?');
      expect(refused.run.status).toBe('succeeded');
      expect(refused.messages.filter(([role]) => role === 'system').map(([, text]) => text)).toEqual([expect.stringContaining('agent started'), expect.stringMatching(reason), expect.stringContaining('agent finished')]);
      expect(toolNames(0)).toEqual(['read_file', 'write_file', 'list_files']);
    }
    const afterRefusals = t.core.store.db.prepare<[], { dump: string }>("SELECT group_concat(raw, '') || (SELECT group_concat(content, '') FROM messages) AS dump FROM activity").get()!.dump;
    expect(afterRefusals).not.toContain('revoked-0000');
  });

  it('goes on without a server whose command does not exist, and a cancelled or timed-out run leaves no server process behind', async () => {
    await t.api('PATCH', '/api/settings', { mcpServers: [everything, { name: 'ghost', transport: 'stdio', command: 'steward-no-such-mcp-server' }] });
    const instance = await openAiInstance('with a ghost');
    model.script([{ text: ['Fine.'] }]);
    const { run, messages } = await prompt(instance.id, 'hello');
    expect(run.status).toBe('succeeded');
    expect(messages.filter(([role]) => role === 'system')).toHaveLength(4);
    expect(messages).toContainEqual(['system', 'MCP server ghost could not start: the command steward-no-such-mcp-server was not found (is it installed and on PATH?); the run goes on without its tools']);

    model.requests.length = 0;
    model.script([{ stall: true }]);
    const created = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'take your time' })).body as { run: Run };
    await waitFor(() => model.requests.length >= 1, { what: 'the model to be asked' });
    const serverPids = childPids('server-everything');
    expect(serverPids).toHaveLength(1);
    const cancelledAt = Date.now();
    expect((await t.api('POST', `/api/runs/${created.run.id}/cancel`)).status).toBe(202);
    expect(await settled(t, created.run.id)).toMatchObject({ status: 'cancelled' });
    console.log(`cancel with server-everything running: settled in ${Date.now() - cancelledAt} ms`);
    expect(isRunning(serverPids[0])).toBe(false);

    // A run that times out ends its servers the same way.
    const slow = await openAiInstance('slow model', { timeoutSeconds: 2 });
    model.requests.length = 0;
    model.script([{ stall: true }]);
    const timing = (await t.api('POST', '/api/runs', { instanceId: slow.id, prompt: 'take longer than allowed' })).body as { run: Run };
    await waitFor(() => model.requests.length >= 1, { what: 'the model to be asked' });
    const timedPids = childPids('server-everything');
    expect(timedPids).toHaveLength(1);
    expect(await settled(t, timing.run.id)).toMatchObject({ status: 'timed_out' });
    expect(isRunning(timedPids[0])).toBe(false);
  });

  it('refuses duplicate names, bad names and bad URLs with the field named, in the settings and on an instance', async () => {
    const attempts: [string, string, object, string][] = [
      ['PATCH', '/api/settings', { mcpServers: [everything, { ...everything, args: [] }] }, 'mcpServers.1.name'],
      ['PATCH', '/api/settings', { mcpServers: [{ ...everything, name: 'Everything Server' }] }, 'mcpServers.0.name'],
      ['PATCH', '/api/settings', { mcpServers: [{ name: 'remote', transport: 'http', url: 'ftp://example.com/mcp' }] }, 'mcpServers.0.url'],
      ['PATCH', '/api/settings', { mcpServers: [{ name: 'remote', transport: 'http', url: 'https://example.com/mcp', headers: { 'Bad Header': 'x' } }] }, 'mcpServers.0.headers.Bad Header'],
      ['PATCH', '/api/settings', { mcpServers: [{ name: 'remote', transport: 'websocket', url: 'https://example.com/mcp' }] }, 'mcpServers.0.transport'],
      ['POST', '/api/instances', { name: 'dup', agent: { provider: 'openai', model: 'm', mcpServers: [everything, everything] } }, 'agent.mcpServers.1.name'],
      ['POST', '/api/instances', { name: 'nameless', agent: { provider: 'openai', model: 'm', mcpServers: [{ ...everything, name: '-x' }] } }, 'agent.mcpServers.0.name'],
    ];
    for (const [method, route, body, field] of attempts) {
      const response = await t.api(method, route, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toMatchObject({ code: expect.stringMatching(/^invalid_field|unknown_field$/), field });
    }
    const duplicate = await t.api('PATCH', '/api/settings', { mcpServers: [everything, everything] });
    expect(duplicate.body.error.message).toBe('MCP servers, entry 2 name is used by another server in the list: "everything".');
    expect((await t.api('GET', '/api/settings')).body.settings.mcpServers).toEqual([]);
  });
});
