// Test connection says what Add would say, but a remote followed already is checked with its own
// key as it is (`steward remotes add` checks the remote it just added; `remotes list` without a
// daemon checks each): only another key for the same address hears "already followed".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(async () => {
  await t.close();
});

describe('checking a remote that is followed already', () => {
  it('checks it with its own key, and refuses another key for the same address as Add would', async () => {
    const url = 'http://127.0.0.1:10';
    expect((await t.api('PUT', '/api/secrets/desk-key', { value: 'stw_desk' })).status).toBe(200);
    expect((await t.api('POST', '/api/remotes', { name: 'Desk', url, apiKeyRef: 'desk-key' })).status).toBe(201);
    const own = await t.api('POST', '/api/remotes/check', { url, apiKeyRef: 'desk-key' });
    expect(own.status).toBe(200);
    expect(own.body.check.state).toBe('unreachable');
    const pasted = await t.api('POST', '/api/remotes/check', { url, apiKey: 'stw_other' });
    expect(pasted.status).toBe(409);
    expect(pasted.body.error.message).toMatch(/^http:\/\/127\.0\.0\.1:10 is already followed as “Desk”/);
  });
});
