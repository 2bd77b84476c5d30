// A run's own key: what an agent's run may do to Steward through it (its own instance's runs,
// automations and webhooks; run-key-reach.test.ts tries every operation), and the loop guards — runs it starts record it as
// their parent, a chain of runs stops at runner.maxRunDepth, an automation cannot fire more often
// than once a minute, and what an automation or webhook it made starts is its child too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
let own: string;
let other: string;

beforeAll(async () => {
  t = await startTestCore();
  // Their runs outlast the test (the first one runs, the rest wait behind it): a run's key ends with its run.
  const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };
  own = (await t.api('POST', '/api/instances', { name: 'own', agent })).body.instance.id;
  other = (await t.api('POST', '/api/instances', { name: 'other', agent })).body.instance.id;
});
afterAll(() => t.close());

/** A run on `instanceId`, still running or queued, and a key of its own. */
async function runWithKey(instanceId: string, as?: string): Promise<{ run: Run; key: string }> {
  const { status, body } = await asKey(as, 'POST', '/api/runs', { instanceId, prompt: 'work' });
  expect(status, JSON.stringify(body)).toBe(202);
  return { run: body.run, key: t.core.services.apiKeys.createForRun(body.run) };
}

function asKey(key: string | undefined, method: string, route: string, body?: unknown) {
  return key === undefined ? t.api(method, route, body) : t.api(method, route, body, { authorization: `Bearer ${key}` });
}

const automation = (extra: Record<string, unknown> = {}) => ({ name: 'follow-up', prompt: 'Look again', cronExpression: '*/10 * * * *', ...extra });

describe("a run's key", () => {
  it('reads, sends prompts, and is refused what only admin may do', async () => {
    const { key } = await runWithKey(own);
    expect((await asKey(key, 'GET', '/api/runs')).status).toBe(200);
    for (const [method, route, body] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys', { name: 'more' }],
      ['PATCH', '/api/settings', { runner: { maxRunDepth: 10 } }],
      ['POST', '/api/instances', { name: 'mine now' }],
      ['PUT', '/api/secrets/x', { value: 'y' }],
    ] as const) {
      const refused = await asKey(key, method, route, body);
      expect(refused.status, `${method} ${route}`).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
  });

  it("manages its own instance's automations and webhooks only", async () => {
    const { run, key } = await runWithKey(own);
    const made = await asKey(key, 'POST', '/api/automations', automation());
    expect(made.status).toBe(201);
    expect(made.body.automation.instanceId).toBe(own); // its own instance by default, not the default instance
    expect((await asKey(key, 'PUT', `/api/automations/${made.body.automation.id}`, { prompt: 'Look once more' })).status).toBe(200);

    // Another instance's is answered as if it did not exist (run-key-reach.test.ts tries every operation).
    const elsewhere = await asKey(key, 'POST', '/api/automations', automation({ instanceId: other }));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error).toMatchObject({ code: 'not_found', message: `No instance ${other}.` });
    const theirs = (await t.api('POST', '/api/automations', automation({ instanceId: other }))).body.automation;
    expect((await asKey(key, 'PUT', `/api/automations/${theirs.id}`, { enabled: false })).status).toBe(404);
    expect((await asKey(key, 'PUT', `/api/automations/${made.body.automation.id}`, { instanceId: other })).status).toBe(404);
    expect((await asKey(key, 'DELETE', `/api/automations/${theirs.id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/automations/${theirs.id}`)).body.automation.enabled).toBe(true);

    // A webhook it made: a sender's request starts a run that is the agent's run's child.
    const hook = await asKey(key, 'POST', '/api/webhooks', { name: 'callback', promptTemplate: 'Got {{payload}}' });
    expect(hook.status).toBe(201);
    expect(hook.body.webhook.instanceId).toBe(own);
    // Its token is the user's to hand to a sender: the run's key never sees it (run-key-webhooks.test.ts).
    expect(hook.body.webhook.token).toBeUndefined();
    const { token } = (await t.api('GET', `/api/webhooks/${hook.body.webhook.id}`)).body.webhook;
    const triggered = await request(`${t.url}/api/webhooks/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"done":true}' });
    expect(triggered.status).toBe(202);
    expect((await t.api('GET', `/api/runs/${triggered.body.run.id}`)).body.run).toMatchObject({ parentRunId: run.id, depth: run.depth! + 1 });
    expect((await asKey(key, 'DELETE', `/api/webhooks/${hook.body.webhook.id}`)).status).toBe(204);
  });

  it('lists over MCP every tool it may call, as the daemon serves them to its agent', async () => {
    const { key } = await runWithKey(own);
    const response = await fetch(`${t.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { result } = (await response.json()) as { result: { tools: { name: string }[] } };
    expect(result.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['create_automation', 'update_automation', 'create_webhook', 'send_prompt', 'get_run', 'list_activity']),
    );
  });

  it('stops working once revoked, as it is when its run ends', async () => {
    const { run, key } = await runWithKey(own);
    t.core.services.apiKeys.revokeForRun(run.id);
    expect((await asKey(key, 'GET', '/api/runs')).status).toBe(401);
  });
});

describe('loop guards', () => {
  it('a chain of runs starting runs stops at runner.maxRunDepth, with a clear error', async () => {
    expect((await t.api('PATCH', '/api/settings', { runner: { maxRunDepth: 2 } })).status).toBe(200);
    // Each accepts the other's prompts (equally confined), so that the chain can bounce between them.
    expect((await t.api('PATCH', `/api/instances/${own}`, { acceptsPromptsFrom: [other] })).status).toBe(200);
    expect((await t.api('PATCH', `/api/instances/${other}`, { acceptsPromptsFrom: [own] })).status).toBe(200);
    const first = await runWithKey(own);
    const second = await runWithKey(other, first.key);
    expect(second.run).toMatchObject({ parentRunId: first.run.id, depth: 1 });
    const third = await runWithKey(own, second.key);
    expect(third.run).toMatchObject({ parentRunId: second.run.id, depth: 2 });

    const refused = await asKey(third.key, 'POST', '/api/runs', { instanceId: other, prompt: 'and again' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('run_depth_limit');
    expect(refused.body.error.message).toMatch(/runner\.maxRunDepth/);
    // Nor can it start runs indirectly, by an automation or a webhook of its own.
    expect((await asKey(third.key, 'POST', '/api/automations', automation())).body.error.code).toBe('run_depth_limit');
    expect((await asKey(third.key, 'POST', '/api/webhooks', { name: 'w', promptTemplate: '{{payload}}' })).body.error.code).toBe('run_depth_limit');
    await t.api('PATCH', '/api/settings', { runner: { maxRunDepth: 3 } });
    for (const id of [own, other]) await t.api('PATCH', `/api/instances/${id}`, { acceptsPromptsFrom: [] });
  });

  it('an automation fires at most once a minute: a cron with seconds is refused', async () => {
    const { key } = await runWithKey(own);
    const refused = await asKey(key, 'POST', '/api/automations', automation({ cronExpression: '*/5 * * * * *' }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'invalid_cron', field: 'cronExpression' });
  });

  it('runs a user starts have no parent', async () => {
    const { body } = await t.api('POST', '/api/runs', { instanceId: own, prompt: 'by hand' });
    expect(body.run).toMatchObject({ parentRunId: null, depth: 0 });
  });
});
