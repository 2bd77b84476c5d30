// report_outcome through Steward's MCP server with a run's own key: recorded on that run (the last
// report wins) with a line in the feed; refused, clearly, to a caller that is no run.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let instanceId: string;
const clients: Client[] = [];

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'steward-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  clients.push(client);
  return client;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string => (result.content as { text: string }[]).map((part) => part.text).join('');

/** A run that keeps running (its agent sleeps), and its own key. */
async function runWithKey(): Promise<{ run: Run; key: string }> {
  const { body } = await t.api('POST', '/api/runs', { instanceId, prompt: 'Check the backups' });
  return { run: body.run, key: t.core.services.apiKeys.createForRun(body.run) };
}

beforeAll(async () => {
  t = await startTestCore();
  instanceId = (await t.api('POST', '/api/instances', { name: 'checker', agent: { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] } })).body.instance.id;
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await t.close();
});

describe('report_outcome', () => {
  it("is offered to a run's key, saying when to use which status", async () => {
    const client = await connect((await runWithKey()).key);
    const tool = (await client.listTools()).tools.find((each) => each.name === 'report_outcome');
    expect(tool?.description).toMatch(/nothing_to_report.*quiet/);
    expect(tool?.description).toMatch(/needs_attention.*notified/);
    expect(tool?.inputSchema.required).toEqual(['status', 'summary']);
  });

  it('records the outcome and summary on the calling run, the last report winning, with a feed line', async () => {
    const { run, key } = await runWithKey();
    const client = await connect(key);
    const first = await client.callTool({ name: 'report_outcome', arguments: { status: 'nothing_to_report', summary: 'All 14 backups are fresh.' } });
    expect(first.isError).toBeFalsy();
    expect(JSON.parse(textOf(first)).run).toMatchObject({ id: run.id, outcome: 'nothing_to_report' });
    await client.callTool({ name: 'report_outcome', arguments: { status: 'needs_attention', summary: 'The backup of db-2 is 3 days old.' } });

    const stored = (await t.api('GET', `/api/runs/${run.id}`)).body.run;
    expect(stored).toMatchObject({ outcome: 'needs_attention', summary: 'The backup of db-2 is 3 days old.' });
    const { events } = (await t.api('GET', `/api/activity?instanceIds=${instanceId}&kinds=system`)).body as { events: ActivityEvent[] };
    const lines = events.filter((line) => line.runId === run.id).map((line) => line.displayText);
    expect(lines).toEqual(['Outcome: nothing to report — All 14 backups are fresh.', 'Outcome: needs attention — The backup of db-2 is 3 days old.']);
  });

  it('refuses a status it does not know and a summary past 500 characters, changing nothing', async () => {
    const { run, key } = await runWithKey();
    const client = await connect(key);
    const unknown = await client.callTool({ name: 'report_outcome', arguments: { status: 'fine', summary: 'ok' } });
    expect(unknown.isError).toBe(true);
    expect(JSON.parse(textOf(unknown)).error).toMatchObject({ code: 'invalid_field', field: 'status' });
    const long = await client.callTool({ name: 'report_outcome', arguments: { status: 'done', summary: 'x'.repeat(501) } });
    expect(JSON.parse(textOf(long)).error).toMatchObject({ code: 'invalid_field', field: 'summary' });
    expect((await t.api('GET', `/api/runs/${run.id}`)).body.run).toMatchObject({ outcome: null, summary: null });
  });

  it("is for runs: a person's key does not see it over MCP, and calling it is a 403 that says so", async () => {
    const client = await connect(t.key);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('report_outcome');
    const refused = await client.callTool({ name: 'report_outcome', arguments: { status: 'done', summary: 'Done.' } });
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused)).error.message).toMatch(/for an agent's run/);

    const http = await t.api('POST', '/api/runs/outcome', { status: 'done', summary: 'Done.' });
    expect(http.status).toBe(403);
    expect(http.body.error).toMatchObject({ code: 'forbidden', message: expect.stringContaining("key Steward gives the run") });
  });
});
