// The error contract of DESIGN §4: one JSON shape, the right status, never HTML or a stack.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorBody } from '../../src/shared/errors';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

function expectError(response: { status: number; body: unknown; headers: Headers }, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(ErrorBody.parse(response.body).error.code).toBe(code);
}

describe('errors', () => {
  it('unknown routes are JSON 404s', async () => {
    expectError(await t.api('GET', '/api/nothing-here'), 404, 'not_found');
    expectError(await t.api('PATCH', '/api/automations'), 404, 'not_found');
    expectError(await t.api('GET', '/api/'), 404, 'not_found');
    // Outside /api is the web UI: a page, which says when there is no UI to serve.
    const page = await t.api('GET', '/');
    expect(page.status).toBe(404);
    expect(page.text).toContain('The web UI is not built');
  });

  it('bodies that are not JSON objects', async () => {
    expectError(await t.api('POST', '/api/automations', '{"name":'), 400, 'invalid_json');
    expectError(await t.api('POST', '/api/automations', '{}'), 400, 'missing_field');
    expectError(await t.api('POST', '/api/automations', '"a string"'), 400, 'invalid_body');
    expectError(await t.api('POST', '/api/automations', '[]'), 400, 'invalid_body');
    expectError(await t.api('POST', '/api/automations', 'null'), 400, 'invalid_body');
    expectError(await t.api('POST', '/api/automations', '{"__proto__":{"x":1}}'), 400, 'invalid_json');
    expectError(await t.api('POST', '/api/automations', 'name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
  });

  it('an empty body is no body, whatever its Content-Type', async () => {
    const created = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily' })).body.automation;
    expect((await t.api('POST', `/api/automations/${created.id}/run`, '', { 'content-type': 'application/json' })).status).toBe(202);
    expect((await t.api('DELETE', `/api/automations/${created.id}`, '', { 'content-type': 'text/plain' })).status).toBe(204);
    expectError(await t.api('POST', '/api/automations', '', { 'content-type': 'application/json' }), 400, 'missing_field');
  });

  it('a body over 1 MiB on the management API is 413', async () => {
    const huge = JSON.stringify({ name: 'x', prompt: 'p'.repeat(1_100_000), cronExpression: '@daily' });
    expectError(await t.api('POST', '/api/automations', huge), 413, 'payload_too_large');
  });

  it('query parameters are checked where an operation takes them, and ignored where it takes none', async () => {
    expect((await t.api('GET', '/api/health?_=123')).status).toBe(200);
    expect((await t.api('GET', '/api/automations?cachebust=1')).status).toBe(200);
    expectError(await t.api('GET', '/api/runs?status=flying'), 400, 'invalid_field');
    expectError(await t.api('GET', '/api/runs?limit=0'), 400, 'invalid_field');
    expectError(await t.api('GET', '/api/runs?colour=red'), 400, 'unknown_field');
  });

  it('never leaks a stack trace', async () => {
    const response = await t.api('POST', '/api/automations', '{"name":');
    expect(response.text).not.toMatch(/at .*\.(ts|js):\d+/);
    expect(response.text).not.toContain('<html');
  });
});
