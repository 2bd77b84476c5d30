// Bearer API keys: every management path needs one; keys are made, listed and revoked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OperationName, operations } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const samplePath = (path: string) => path.replace('{id}', 'some_id').replace('{token}', 'some_token');

describe('authentication', () => {
  it('every operation that needs a key answers 401 without one, with a wrong one, or a malformed header', async () => {
    const guarded = Object.entries(operations).filter(([, op]) => op.auth);
    expect(guarded.length).toBeGreaterThan(15);
    for (const [name, op] of guarded) {
      for (const authorization of [undefined, 'Bearer stw_wrong', 'Basic dXNlcjpwYXNz', `Bearer`, t.key]) {
        const headers: Record<string, string> = authorization ? { authorization } : {};
        const response = await request(t.url + samplePath(op.path), { method: op.method, headers });
        expect(response.status, `${name as OperationName} with ${authorization}`).toBe(401);
        expect(response.body.error.code).toBe('unauthorized');
        expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      }
    }
  });

  it('health and the OpenAPI document need no key', async () => {
    const health = await request(`${t.url}/api/health`, {});
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', version: expect.any(String) });
    expect((await request(`${t.url}/api/openapi.json`, {})).status).toBe(200);
  });

  it('accepts the scheme case-insensitively', async () => {
    const response = await request(`${t.url}/api/automations`, { headers: { authorization: `bearer ${t.key}` } });
    expect(response.status).toBe(200);
  });
});

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, and it works at once', async () => {
    const created = await t.api('POST', '/api/keys', { name: 'ci' });
    expect(created.status).toBe(201);
    const { apiKey, key } = created.body;
    expect(key).toMatch(/^stw_[A-Za-z0-9_-]{43}$/);
    expect(apiKey).toMatchObject({ name: 'ci', lastUsedAt: null, preview: key.slice(0, 10) });

    const listed = await t.api('GET', '/api/keys');
    expect(listed.body.apiKeys.map((k: { id: string }) => k.id)).toContain(apiKey.id);
    expect(listed.text).not.toContain(key);

    const used = await request(`${t.url}/api/automations`, { headers: { authorization: `Bearer ${key}` } });
    expect(used.status).toBe(200);
    const afterUse = (await t.api('GET', '/api/keys')).body.apiKeys.find((k: { id: string }) => k.id === apiKey.id);
    expect(afterUse.lastUsedAt).not.toBeNull();
  });

  it('revokes a key at once', async () => {
    const { apiKey, key } = (await t.api('POST', '/api/keys', { name: 'temporary' })).body;
    expect((await t.api('DELETE', `/api/keys/${apiKey.id}`)).status).toBe(204);
    const refused = await request(`${t.url}/api/automations`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);
    expect((await t.api('GET', '/api/keys')).body.apiKeys.map((k: { id: string }) => k.id)).not.toContain(apiKey.id);
    expect((await t.api('DELETE', `/api/keys/${apiKey.id}`)).status).toBe(404);
  });

  it('stores only a hash of each key', async () => {
    const { key } = (await t.api('POST', '/api/keys', { name: 'hashed' })).body;
    const rows = t.core.store.db.prepare('SELECT * FROM api_keys').all();
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('rejects a key without a name', async () => {
    const response = await t.api('POST', '/api/keys', {});
    expect(response.body.error).toMatchObject({ code: 'missing_field', field: 'name' });
  });
});
