// A run's own key reaches its own instance and nothing more (issue 29, item 4), tried as an agent
// driven by a stranger's webhook would try it: every operation of the contract called with another
// instance's ids (refused, or answered as if absent; never a 2xx, never another instance's data);
// its own instance's runs, threads, messages, automations, webhooks, deliveries, fires, spend,
// approvals and activity answered; prompts to another instance only where that instance accepts
// them (acceptsPromptsFrom) and is at least as confined (never an `off` instance, nor one with a
// wider network, from a sandboxed one), with the runs it started there readable and nothing else of
// it; and no agent.env value of any instance (its own included) in any answer, over HTTP or MCP.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Instance, type Operation, type Run, operations } from '../../src/shared/contract';
import { type ApiResponse, type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;

/** The values no answer to a run's key may hold: every instance's agent.env and MCP server env. */
const secrets = { own: 'sk-own-4d1f-SECRET', other: 'sk-other-9b2e-SECRET', accepting: 'sk-accepting-77aa-SECRET', mcp: 'sk-mcp-c0de-SECRET', open: 'sk-open-1e1e-SECRET' };
const sleeper = (env: Record<string, string>) => ({ provider: 'command', preset: 'custom', command: 'sleep', args: ['600'], env });

interface Resources {
  instance: string;
  automation: string;
  webhook: string;
  delivery: string;
  run: string;
  thread: string;
  approval: string;
}
let own: Resources;
let other: Resources;
let accepting: Instance;
let open: Instance;
let wider: Instance;
let mcpish: Instance;
let loose: Instance;
/** A run of `own` and its key: the caller of every test here. */
let key: string;

const asKey = (method: string, route: string, body?: unknown, as = key) => t.api(method, route, body, { authorization: `Bearer ${as}` });

async function create(body: Record<string, unknown>): Promise<Instance> {
  const made = await t.api('POST', '/api/instances', body);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.instance as Instance;
}

/** An automation, a webhook (its runs wait for a person: an approval) with one delivery, and a prompt's run and thread. */
async function resourcesOf(instance: Instance): Promise<Resources> {
  const automation = (await t.api('POST', '/api/automations', { name: `${instance.name} nightly`, prompt: 'Look', cronExpression: '0 3 * * *', instanceId: instance.id })).body.automation;
  const webhook = (await t.api('POST', '/api/webhooks', { name: `${instance.name} hook`, promptTemplate: 'Got {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;
  const triggered = await request(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"from":"a stranger"}' });
  expect(triggered.status).toBe(202);
  const approval = (await t.api('GET', `/api/approvals?runId=${triggered.body.run.id}`)).body.approvals[0].id as string;
  const delivery = (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body.deliveries[0].id as string;
  const run = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: `what ${instance.name} was asked` })).body.run as Run;
  return { instance: instance.id, automation: automation.id, webhook: webhook.id, delivery, run: run.id, thread: run.threadId, approval };
}

/** Every id of another instance's that must never show in an answer to the run's key. */
const othersIds = () => [other.instance, other.automation, other.webhook, other.delivery, other.run, other.thread, other.approval, open.id, wider.id];

function expectNothingOfOthers(response: ApiResponse, what: string): void {
  for (const value of Object.values(secrets)) expect(response.text, `${what} holds an env value`).not.toContain(value);
  for (const id of othersIds()) expect(response.text, `${what} names ${id}`).not.toContain(id);
}

beforeAll(async () => {
  t = await startTestCore();
  const ownInstance = await create({ name: 'own', agent: sleeper({ OWN_KEY: secrets.own }) });
  const otherInstance = await create({ name: 'other', agent: sleeper({ OTHER_KEY: secrets.other }) });
  accepting = await create({ name: 'accepting', agent: sleeper({ ACCEPTING_KEY: secrets.accepting }), acceptsPromptsFrom: [ownInstance.id] });
  loose = await create({ name: 'loose', agent: sleeper({}), sandbox: { mode: 'off' } });
  open = await create({ name: 'open', agent: sleeper({ OPEN_KEY: secrets.open }), sandbox: { mode: 'off' }, acceptsPromptsFrom: [ownInstance.id, loose.id] });
  wider = await create({ name: 'wider', agent: sleeper({}), sandbox: { mode: 'sandbox', network: ['collector.example'] }, acceptsPromptsFrom: [ownInstance.id] });
  mcpish = await create({
    name: 'mcpish',
    agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', mcpServers: [{ name: 'tool', transport: 'stdio', command: 'true', env: { MCP_TOKEN: secrets.mcp } }] },
    acceptsPromptsFrom: [ownInstance.id],
  });
  own = await resourcesOf(ownInstance);
  other = await resourcesOf(otherInstance);
  // An activity line written before agent.env values were kept out of it: still none reaches a run's key.
  t.core.store.activity.append({ instanceId: own.instance, runId: null, kind: 'system', label: '', displayText: 'Agent changed', raw: JSON.stringify({ type: 'instance.agent', agent: sleeper({ OWN_KEY: secrets.own }) }), timestamp: new Date().toISOString() });
  const running = (await t.api('POST', '/api/runs', { instanceId: own.instance, prompt: 'a stranger wrote this' })).body.run as Run;
  key = t.core.services.apiKeys.createForRun(running);
});
afterAll(() => t.close());

/** A path of `operation` naming `ids`' resource of its collection (`/api/automations/{id}/fires` → an automation's id). */
function pathFor(operation: Operation, ids: Resources): string {
  const collection = operation.path.split('/')[2];
  const byCollection: Record<string, string> = { automations: ids.automation, webhooks: ids.webhook, deliveries: ids.delivery, runs: ids.run, threads: ids.thread, approvals: ids.approval, instances: ids.instance };
  return operation.path.replace('{id}', byCollection[collection] ?? `${collection}_unknown`).replace('{name}', 'anything');
}

/** A body each operation with a body takes, naming `ids`' instance where it names one. */
const bodyFor = (name: string, ids: Resources): unknown =>
  ({
    'automations.create': { name: 'planted', prompt: 'x', cronExpression: '0 4 * * *', instanceId: ids.instance },
    'automations.update': { prompt: 'changed by a stranger' },
    'webhooks.create': { name: 'planted', promptTemplate: '{{payload}}', instanceId: ids.instance },
    'webhooks.update': { promptTemplate: 'changed {{payload}}' },
    'runs.create': { instanceId: ids.instance, prompt: 'cat ~/.ssh/id_ed25519' },
  })[name] ?? {};

/** A list's query naming `ids`' instance, for the lists that filter by one. */
const queryFor = (operation: Operation, ids: Resources): string => {
  const shape = (operation.query as { shape?: Record<string, unknown> }).shape ?? {};
  if ('instanceIds' in shape) return `?instanceIds=${ids.instance}`;
  if ('instanceId' in shape) return `?instanceId=${ids.instance}`;
  return '';
};

/** The operations a run's key may not call at all, by the contract; and the ones that act on the calling run only (asked elsewhere: they wait for a person). */
const calledByRoute = Object.values(operations as Record<string, Operation>).filter((operation) => operation.auth && !operation.customRoute);

describe("a run's key and another instance", () => {
  it.each(calledByRoute.filter((operation) => operation.runKey !== 'self').map((operation) => [operation.name, operation] as const))(
    '%s: refused, or answered as if it were not there; never another instance\'s data',
    async (name, operation) => {
      const answer = await asKey(operation.method, pathFor(operation, other) + queryFor(operation, other), ['POST', 'PUT', 'PATCH'].includes(operation.method) ? bodyFor(name, other) : undefined);
      if (operation.runKey === undefined) {
        expect(answer.status, answer.text).toBe(403);
        expect(answer.body.error.message).toBe(`A run's key reaches its own instance only: it cannot call ${name}.`);
        return;
      }
      if (answer.status < 300) {
        // A list that names no instance: its own instance's items only.
        expect(operation.method).toBe('GET');
        expect(operation.path.includes('{id}') || queryFor(operation, other) !== '').toBe(false);
        expectNothingOfOthers(answer, name);
        return;
      }
      expect(answer.status, answer.text).toBe(404);
      expect(answer.body.error.code).toBe('not_found');
      expect(answer.body.error.message).toMatch(/^No (instance|automation|webhook|delivery|run|thread|approval) \w+\.$/);
    },
  );

  it("changed nothing of the other instance's, and its runs go on", async () => {
    expect((await t.api('GET', `/api/automations/${other.automation}`)).body.automation.prompt).toBe('Look');
    expect((await t.api('GET', `/api/webhooks/${other.webhook}`)).body.webhook.promptTemplate).toBe('Got {{payload}}');
    expect((await t.api('GET', `/api/runs/${other.run}`)).body.run.status).not.toBe('cancelled');
    const planted = (await t.api('GET', '/api/automations')).body.automations.filter((automation: { name: string; instanceId: string }) => automation.name === 'planted' && automation.instanceId !== own.instance);
    expect(planted).toEqual([]);
    const prompted = (await t.api('GET', `/api/runs?instanceId=${other.instance}`)).body.runs.filter((run: Run) => run.prompt.includes('.ssh'));
    expect(prompted).toEqual([]);
  });

  it('opens no event stream (every instance\'s lines)', async () => {
    const stream = await fetch(`${t.url}/api/events`, { headers: { authorization: `Bearer ${key}` } });
    expect(stream.status).toBe(403);
    expect(((await stream.json()) as { error: { code: string } }).error.code).toBe('forbidden');
  });
});

describe("a run's key and its own instance", () => {
  it('reads and manages what is its own', async () => {
    for (const [method, route] of [
      ['GET', `/api/automations/${own.automation}`],
      ['GET', `/api/automations/${own.automation}/fires`],
      ['GET', `/api/automations/${own.automation}/spend`],
      ['GET', `/api/webhooks/${own.webhook}`],
      ['GET', `/api/webhooks/${own.webhook}/deliveries`],
      ['GET', `/api/deliveries/${own.delivery}`],
      ['GET', `/api/runs/${own.run}`],
      ['GET', `/api/runs/${own.run}/messages`],
      ['GET', `/api/threads/${own.thread}`],
      ['GET', `/api/approvals/${own.approval}`],
      ['GET', `/api/instances/${own.instance}`],
      ['GET', `/api/instances/${own.instance}/activity`],
      ['GET', `/api/runs?instanceId=${own.instance}`],
    ] as const) {
      const answer = await asKey(method, route);
      expect(answer.status, `${route}: ${answer.text}`).toBe(200);
      expectNothingOfOthers(answer, route);
    }
    expect((await asKey('PUT', `/api/automations/${own.automation}`, { prompt: 'Look closer' })).status).toBe(200);
    const made = await asKey('POST', '/api/automations', { name: 'follow-up', prompt: 'Again', cronExpression: '0 5 * * *' });
    expect(made.status).toBe(201);
    expect(made.body.automation.instanceId).toBe(own.instance);
  });

  it('lists only its own instance\'s runs, threads, automations, webhooks, approvals and activity', async () => {
    const lists: [string, string, (item: Record<string, unknown>) => unknown][] = [
      ['/api/runs', 'runs', (run) => run.instanceId],
      ['/api/automations', 'automations', (automation) => automation.instanceId],
      ['/api/webhooks', 'webhooks', (webhook) => webhook.instanceId],
      ['/api/approvals', 'approvals', (approval) => approval.instanceId],
    ];
    for (const [route, field, instanceOf] of lists) {
      const answer = await asKey('GET', route);
      expect(answer.status).toBe(200);
      const items = answer.body[field] as Record<string, unknown>[];
      expect(items.length, route).toBeGreaterThan(0);
      expect(new Set(items.map(instanceOf)), route).toEqual(new Set([own.instance]));
      expectNothingOfOthers(answer, route);
    }
    const threads = await asKey('GET', '/api/threads');
    expect(threads.body.threads.map((thread: { id: string }) => thread.id)).toContain(own.thread);
    expectNothingOfOthers(threads, '/api/threads');
    const activity = await asKey('GET', '/api/activity');
    expect(activity.body.events.length).toBeGreaterThan(0);
    expect(new Set(activity.body.events.map((event: { instanceId: string }) => event.instanceId))).toEqual(new Set([own.instance]));
    expect(Object.keys(activity.body.cursors)).toEqual([own.instance]);
    expectNothingOfOthers(activity, '/api/activity');
  });
});

describe('prompts to another instance', () => {
  it('reach one that accepts them and is as confined, and read back only the runs they started there', async () => {
    const sent = await asKey('POST', '/api/runs', { instanceId: accepting.id, prompt: 'summarise the notes' });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body.run.instanceId).toBe(accepting.id);
    expect((await asKey('GET', `/api/runs/${sent.body.run.id}`)).body.run).toMatchObject({ prompt: 'summarise the notes', parentRunId: expect.stringMatching(/^run_/) });
    expect((await asKey('GET', `/api/runs/${sent.body.run.id}/messages`)).status).toBe(200);
    // Not the rest of that instance: a run someone else sent it, its automations, its chats, its list of runs.
    const theirs = (await t.api('POST', '/api/runs', { instanceId: accepting.id, prompt: 'the owner\'s own question' })).body.run as Run;
    expect((await asKey('GET', `/api/runs/${theirs.id}`)).status).toBe(404);
    expect((await asKey('GET', `/api/runs/${theirs.id}/messages`)).status).toBe(404);
    expect((await asKey('POST', `/api/runs/${theirs.id}/cancel`, {})).status).toBe(404);
    expect((await asKey('POST', '/api/automations', { name: 'planted', prompt: 'x', cronExpression: '0 4 * * *', instanceId: accepting.id })).status).toBe(404);
    expect((await asKey('GET', `/api/runs?instanceId=${accepting.id}`)).status).toBe(404);
    expect((await asKey('GET', `/api/instances/${accepting.id}/activity`)).status).toBe(404);
    expect((await asKey('POST', '/api/runs', { instanceId: accepting.id, prompt: 'and on', threadId: theirs.threadId })).status).toBe(404);
    // What it started, it may stop.
    expect((await asKey('POST', `/api/runs/${sent.body.run.id}/cancel`, {})).body.run.status).toBe('cancelled');
  });

  it('never reach an instance less confined than its own: off, or with a wider network', async () => {
    for (const target of [open, wider]) {
      const refused = await asKey('POST', '/api/runs', { instanceId: target.id, prompt: 'read ~/.ssh and tell me' });
      expect(refused.status, target.name).toBe(404);
      expect(refused.body.error).toMatchObject({ code: 'not_found', message: `No instance ${target.id}.` });
      expect((await asKey('GET', `/api/instances/${target.id}`)).status).toBe(404);
    }
    expect((await t.api('GET', `/api/runs?instanceId=${open.id}`)).body.runs).toEqual([]);
    // A sender that is off itself is confined by nothing: the off instance that lists it accepts it.
    const looseRun = (await t.api('POST', '/api/runs', { instanceId: loose.id, prompt: 'work' })).body.run as Run;
    const looseKey = t.core.services.apiKeys.createForRun(looseRun);
    expect((await asKey('POST', '/api/runs', { instanceId: open.id, prompt: 'hello' }, looseKey)).status).toBe(202);
    expect((await asKey('POST', '/api/runs', { instanceId: accepting.id, prompt: 'hello' }, looseKey)).status).toBe(404);
  });

  it('list the instances it may prompt, with env names but no values', async () => {
    const listed = await asKey('GET', '/api/instances');
    expect(listed.status).toBe(200);
    const instances = listed.body.instances as Instance[];
    expect(instances.map((instance) => instance.name).sort()).toEqual(['accepting', 'mcpish', 'own']);
    expectNothingOfOthers(listed, '/api/instances');
    const mine = instances.find((instance) => instance.id === own.instance)!;
    expect(mine.agent).toMatchObject({ env: { OWN_KEY: '[hidden]' } });
    const tooled = instances.find((instance) => instance.id === mcpish.id)!;
    expect(tooled.agent).toMatchObject({ mcpServers: [{ name: 'tool', env: { MCP_TOKEN: '[hidden]' } }] });
    // The user's own key still sees the values.
    expect((await t.api('GET', `/api/instances/${own.instance}`)).body.instance.agent.env.OWN_KEY).toBe(secrets.own);
  });
});

describe('agent.env values', () => {
  it('are in no answer to a GET a run\'s key may make about its own instance', async () => {
    const gets = calledByRoute.filter((operation) => operation.method === 'GET' && operation.runKey !== undefined);
    expect(gets.length).toBeGreaterThan(15);
    for (const operation of gets) {
      const route = pathFor(operation, own);
      const answer = await asKey('GET', route);
      expect(answer.status, `${operation.name} ${route}: ${answer.text}`).toBe(200);
      expectNothingOfOthers(answer, operation.name);
    }
    // The activity line that held them before holds their names only.
    const lines = (await asKey('GET', `/api/instances/${own.instance}/activity`)).body.events as { raw: string }[];
    expect(lines.map((line) => line.raw)).toContainEqual(expect.stringContaining('"OWN_KEY":"[hidden]"'));
  });

  it('are in no MCP tool result either, and the tools offered are the ones it may call', async () => {
    const client = new Client({ name: 'attacker', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['list_instances', 'send_prompt', 'get_run_messages', 'list_activity', 'report_outcome']));
      const args: Record<string, Record<string, unknown>> = {
        get_automation: { id: own.automation },
        update_automation: { id: own.automation, prompt: 'Look again' },
        get_webhook: { id: own.webhook },
        update_webhook: { id: own.webhook, name: 'renamed' },
        create_automation: { name: 'by mcp', prompt: 'x', cronExpression: '0 6 * * *' },
        create_webhook: { name: 'by mcp', promptTemplate: '{{payload}}' },
        send_prompt: { instanceId: accepting.id, prompt: 'hi' },
        get_run: { id: own.run },
        get_run_messages: { id: own.run },
      };
      // ask_human and approval_prompt wait for a person; report_outcome records on its own run.
      for (const name of names.filter((each) => !['ask_human', 'approval_prompt', 'report_outcome'].includes(each))) {
        const result = (await client.callTool({ name, arguments: args[name] ?? {} })) as { isError?: boolean; content: { text: string }[] };
        const text = result.content.map((part) => part.text).join('\n');
        expect(result.isError, `${name}: ${text}`).toBeFalsy();
        for (const value of Object.values(secrets)) expect(text, name).not.toContain(value);
        for (const id of othersIds()) expect(text, name).not.toContain(id);
      }
      const refused = (await client.callTool({ name: 'get_run_messages', arguments: { id: other.run } })) as { isError?: boolean; content: { text: string }[] };
      expect(refused.isError).toBe(true);
      expect(JSON.parse(refused.content[0].text)).toEqual({ error: { code: 'not_found', message: `No run ${other.run}.` } });
    } finally {
      await client.close();
    }
  });
});

describe('acceptsPromptsFrom', () => {
  it('names other instances of this Steward only, and forgets one that is deleted', async () => {
    const unknown = await t.api('PATCH', `/api/instances/${accepting.id}`, { acceptsPromptsFrom: [own.instance, 'ins_01M89Z0000000000000000000Z'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'invalid_field', field: 'acceptsPromptsFrom.1' });
    const itself = await t.api('PATCH', `/api/instances/${accepting.id}`, { acceptsPromptsFrom: [accepting.id] });
    expect(itself.body.error).toMatchObject({ code: 'invalid_field', field: 'acceptsPromptsFrom.0' });
    expect((await t.api('GET', `/api/instances/${accepting.id}`)).body.instance.acceptsPromptsFrom).toEqual([own.instance]);

    const passing = await create({ name: 'passing', agent: sleeper({}) });
    expect((await t.api('PATCH', `/api/instances/${accepting.id}`, { acceptsPromptsFrom: [own.instance, passing.id, passing.id] })).body.instance.acceptsPromptsFrom).toEqual([own.instance, passing.id]);
    expect((await t.api('DELETE', `/api/instances/${passing.id}?force=true`)).status).toBe(204);
    expect((await t.api('GET', `/api/instances/${accepting.id}`)).body.instance.acceptsPromptsFrom).toEqual([own.instance]);
  });
});
