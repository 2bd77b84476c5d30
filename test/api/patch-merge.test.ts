// An update names some fields and keeps the rest (DESIGN.md, "Update semantics"; the one rule in
// services/patch-merge.ts), for automations and webhooks alike: each field changed alone leaves
// every other field as it was; null clears where the contract allows it; an object is replaced whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
let otherInstanceId: string;
beforeAll(async () => {
  t = await startTestCore();
  otherInstanceId = (await t.api('POST', '/api/instances', { name: 'Other', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id;
});
afterAll(() => t.close());

/** What the resource is, without what is computed from it on each read. */
function stored(resource: Record<string, unknown>, computed: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => !computed.includes(key)));
}

/** Sends each body alone and checks that the resource changed by `expected` and nothing else. */
async function changesOnlyWhatItNames(path: string, envelope: string, computed: string[], steps: [object, Record<string, unknown>][]) {
  for (const [body, expected] of steps) {
    const before = stored((await t.api('GET', path)).body[envelope], computed);
    const response = await t.api('PUT', path, body);
    expect(response.status, JSON.stringify(body)).toBe(200);
    const after = stored(response.body[envelope], computed);
    expect(after, JSON.stringify(body)).toEqual({ ...before, ...expected });
    expect(stored((await t.api('GET', path)).body[envelope], computed), JSON.stringify(body)).toEqual(after);
  }
}

describe('PUT /api/automations/{id}', () => {
  const computed = ['updatedAt', 'nextRuns', 'health', 'lastRunAt', 'lastRunStatus'];
  const full = {
    name: 'Nightly report',
    prompt: 'Write the report',
    cronExpression: '0 3 * * *',
    timezone: 'Europe/Berlin',
    enabled: true,
    catchUp: 'skip',
    notify: 'failures',
    memory: 'continue',
    retry: { attempts: 2, backoffSeconds: 60, on: ['network'] },
    approval: { mode: 'before-run', timeoutSeconds: 600 },
    budget: { usdPerDay: 2, usdPerMonth: 20 },
  };

  it('keeps every field a body leaves out, whichever field it names', async () => {
    const automation = (await t.api('POST', '/api/automations', full)).body.automation;
    const path = `/api/automations/${automation.id}`;
    await changesOnlyWhatItNames(path, 'automation', computed, [
      [{}, {}],
      [{ name: 'Renamed' }, { name: 'Renamed' }],
      [{ prompt: 'Write it shorter' }, { prompt: 'Write it shorter' }],
      [{ cronExpression: ' 30 4 * * 1 ' }, { cronExpression: '30 4 * * 1' }],
      [{ timezone: 'Asia/Tokyo' }, { timezone: 'Asia/Tokyo' }],
      [{ enabled: false }, { enabled: false }],
      [{ catchUp: 'latest' }, { catchUp: 'latest' }],
      [{ notify: 'none' }, { notify: 'none' }],
      [{ memory: 'fresh' }, { memory: 'fresh' }],
      [{ retry: { attempts: 4, backoffSeconds: 10, on: ['timeout'] } }, { retry: { attempts: 4, backoffSeconds: 10, on: ['timeout'] } }],
      [{ approval: { mode: 'none', timeoutSeconds: 60 } }, { approval: { mode: 'none', timeoutSeconds: 60 } }],
      [{ budget: { usdPerRun: 1 } }, { budget: { usdPerRun: 1 } }],
      [{ instanceId: otherInstanceId }, { instanceId: otherInstanceId }],
    ]);
  });

  it('replaces an object given whole, with the contract\'s defaults for what it leaves out', async () => {
    const automation = (await t.api('POST', '/api/automations', full)).body.automation;
    const path = `/api/automations/${automation.id}`;
    await changesOnlyWhatItNames(path, 'automation', computed, [
      [{ budget: { usdPerMonth: 5 } }, { budget: { usdPerMonth: 5 } }],
      [{ budget: {} }, { budget: {} }],
      [{ retry: { attempts: 1 } }, { retry: { attempts: 1, backoffSeconds: 30, on: ['rate_limit', 'overloaded', 'network', 'timeout'] } }],
    ]);
  });

  it('drops the schedule for a trigger given, and the trigger for a schedule given, keeping the rest', async () => {
    const first = (await t.api('POST', '/api/automations', full)).body.automation;
    const automation = (await t.api('POST', '/api/automations', { ...full, name: 'Follower' })).body.automation;
    const trigger = { after: { automationId: first.id, on: ['succeeded'] } };
    await changesOnlyWhatItNames(`/api/automations/${automation.id}`, 'automation', computed, [
      [{ trigger }, { trigger, cronExpression: null }],
      [{ cronExpression: '0 5 * * *' }, { trigger: null, cronExpression: '0 5 * * *' }],
    ]);
  });
});

describe('PUT /api/webhooks/{id}', () => {
  // The check in force is computed from the signature and sender, the URLs from the token.
  const computed = ['updatedAt', 'checkInForce', 'triggerUrl', 'publicTriggerUrl'];
  const full = {
    name: 'GitHub pushes',
    promptTemplate: 'Pushed: {{payload.ref}}',
    enabled: true,
    notify: 'all',
    memory: 'continue',
    retry: { attempts: 2, backoffSeconds: 60, on: ['network'] },
    approval: { mode: 'before-run', timeoutSeconds: 600 },
    signature: { scheme: 'github', secret: 'a-long-enough-secret' },
    sender: 'github',
    maxPayloadBytes: 50_000,
    filter: [{ header: 'x-github-event', equals: 'push' }],
    fencePayload: true,
    idempotencyKey: '{{headers.x-github-delivery}}',
  };

  it('keeps every field a body leaves out, whichever field it names', async () => {
    const webhook = (await t.api('POST', '/api/webhooks', full)).body.webhook;
    const path = `/api/webhooks/${webhook.id}`;
    await changesOnlyWhatItNames(path, 'webhook', computed, [
      [{}, {}],
      [{ name: 'Renamed' }, { name: 'Renamed' }],
      [{ promptTemplate: 'Push {{payload}}' }, { promptTemplate: 'Push {{payload}}' }],
      [{ enabled: false }, { enabled: false }],
      [{ notify: 'none' }, { notify: 'none' }],
      [{ memory: 'fresh' }, { memory: 'fresh' }],
      [{ retry: { attempts: 4, backoffSeconds: 10, on: ['timeout'] } }, { retry: { attempts: 4, backoffSeconds: 10, on: ['timeout'] } }],
      [{ approval: { mode: 'none', timeoutSeconds: 60 } }, { approval: { mode: 'none', timeoutSeconds: 60 } }],
      [{ sender: 'stripe' }, { sender: 'stripe' }],
      [{ maxPayloadBytes: 1_000 }, { maxPayloadBytes: 1_000 }],
      [{ filter: [] }, { filter: [] }],
      [{ fencePayload: false }, { fencePayload: false }],
      [{ idempotencyKey: '{{payload.id}}' }, { idempotencyKey: '{{payload.id}}' }],
      [{ signature: { scheme: 'standard', secret: 'another-long-secret' } }, { signature: { scheme: 'standard' } }],
      [{ instanceId: otherInstanceId }, { instanceId: otherInstanceId }],
      [{ regenerateToken: false }, {}],
    ]);
  });

  it('clears a nullable field given null, and keeps it when left out', async () => {
    const webhook = (await t.api('POST', '/api/webhooks', full)).body.webhook;
    const path = `/api/webhooks/${webhook.id}`;
    await changesOnlyWhatItNames(path, 'webhook', computed, [
      [{ idempotencyKey: null }, { idempotencyKey: null }],
      [{ signature: null }, { signature: null }],
      [{ name: 'Still unsigned' }, { name: 'Still unsigned' }],
    ]);
    expect((await t.api('GET', path)).body.webhook.checkInForce).not.toBe(webhook.checkInForce);
  });

  it('a new token changes the token and its URLs only', async () => {
    const webhook = (await t.api('POST', '/api/webhooks', full)).body.webhook;
    const renewed = (await t.api('PUT', `/api/webhooks/${webhook.id}`, { regenerateToken: true })).body.webhook;
    expect(renewed.token).not.toBe(webhook.token);
    expect(stored(renewed, [...computed, 'token'])).toEqual(stored(webhook, [...computed, 'token']));
  });
});
