// Retry policies over HTTP: automations and webhooks take one, default to none, and refuse to
// retry what waiting cannot fix (a refused key, the agent's own error) with a 400 that says why,
// changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const automation = { name: 'Nightly', prompt: 'Check the build', cronExpression: '0 3 * * *' };
const webhook = { name: 'CI', promptTemplate: 'Look at {{payload}}' };

describe.each([
  ['automations', automation, 'automation'],
  ['webhooks', webhook, 'webhook'],
] as const)('/api/%s retry', (resource, body, key) => {
  it('is none by default, and takes attempts, a backoff and the classes to retry', async () => {
    const plain = await t.api('POST', `/api/${resource}`, body);
    expect(plain.status).toBe(201);
    expect(plain.body[key].retry).toEqual({ attempts: 0, backoffSeconds: 30, on: ['rate_limit', 'overloaded', 'network', 'timeout'] });
    const retry = { attempts: 3, backoffSeconds: 60, on: ['overloaded', 'usage_limit'] };
    const changed = await t.api('PUT', `/api/${resource}/${plain.body[key].id}`, { retry });
    expect(changed.status).toBe(200);
    expect((await t.api('GET', `/api/${resource}/${plain.body[key].id}`)).body[key].retry).toEqual(retry);
  });

  it('refuses to retry a refused key or the agent’s own error, saying why, and changes nothing', async () => {
    const created = await t.api('POST', `/api/${resource}`, { ...body, retry: { attempts: 2, on: ['auth', 'network'] } });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'not_retryable', field: 'retry.on', message: expect.stringContaining('auth is never retried') });
    const kept = (await t.api('POST', `/api/${resource}`, body)).body[key];
    const updated = await t.api('PUT', `/api/${resource}/${kept.id}`, { retry: { attempts: 2, on: ['agent_error', 'auth'] } });
    expect(updated.status).toBe(400);
    expect(updated.body.error).toMatchObject({ code: 'not_retryable', message: expect.stringContaining('agent_error and auth are never retried') });
    expect((await t.api('GET', `/api/${resource}/${kept.id}`)).body[key].retry.attempts).toBe(0);
  });

  it('refuses more than five attempts', async () => {
    const created = await t.api('POST', `/api/${resource}`, { ...body, retry: { attempts: 6 } });
    expect(created.status).toBe(400);
    expect(created.body.error.field).toBe('retry.attempts');
  });
});
