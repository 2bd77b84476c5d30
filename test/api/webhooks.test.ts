// Webhooks through a real loopback socket (seed op 5, and the operations around it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const valid = { name: 'CI failures', promptTemplate: 'CI failed: {{payload}}. Look at the log.' };
const create = async (body: object = valid) => (await t.api('POST', '/api/webhooks', body)).body.webhook as Webhook;
const trigger = (token: string) => request(`${t.url}/api/webhooks/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });

describe('POST /api/webhooks', () => {
  it('creates an enabled webhook with a long random token and its trigger URL', async () => {
    const response = await t.api('POST', '/api/webhooks', valid);
    expect(response.status).toBe(201);
    const webhook = Webhook.parse(response.body.webhook);
    expect(webhook).toMatchObject({ ...valid, enabled: true });
    expect(webhook.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(webhook.triggerUrl).toBe(`${t.url}/api/webhooks/trigger/${webhook.token}`);
    expect((await create()).token).not.toBe(webhook.token);
  });

  it('rejects a template without {{payload}}', async () => {
    for (const promptTemplate of ['No placeholder', '{{ payload }}', '{{PAYLOAD}}', '{payload}']) {
      const response = await t.api('POST', '/api/webhooks', { ...valid, promptTemplate });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'missing_payload_placeholder', field: 'promptTemplate' });
    }
    expect((await t.api('POST', '/api/webhooks', { name: 'x' })).body.error).toMatchObject({ code: 'missing_field', field: 'promptTemplate' });
    expect((await t.api('POST', '/api/webhooks', { ...valid, token: 'mine' })).body.error).toMatchObject({ code: 'unknown_field', field: 'token' });
  });
});

describe('PUT /api/webhooks/{id}', () => {
  it('changes only the fields sent', async () => {
    const webhook = await create();
    const response = await t.api('PUT', `/api/webhooks/${webhook.id}`, { name: 'Renamed' });
    expect(response.status).toBe(200);
    expect(response.body.webhook).toMatchObject({ name: 'Renamed', promptTemplate: valid.promptTemplate, token: webhook.token, enabled: true });
  });

  it('regenerates the token: the old URL is unknown at once, the new one works', async () => {
    const webhook = await create();
    expect((await trigger(webhook.token!)).status).toBe(202);
    const response = await t.api('PUT', `/api/webhooks/${webhook.id}`, { regenerateToken: true });
    const renewed = response.body.webhook as Webhook;
    expect(renewed.token).not.toBe(webhook.token);
    expect(renewed.triggerUrl).toContain(renewed.token);
    const old = await trigger(webhook.token!);
    expect(old.status).toBe(404);
    expect(old.body.error.code).toBe('not_found');
    expect((await trigger(renewed.token!)).status).toBe(202);
  });

  it('regenerateToken false keeps the token', async () => {
    const webhook = await create();
    const response = await t.api('PUT', `/api/webhooks/${webhook.id}`, { regenerateToken: false });
    expect(response.body.webhook.token).toBe(webhook.token);
  });

  it('disabling answers 403 webhook_disabled on trigger until re-enabled', async () => {
    const webhook = await create();
    await t.api('PUT', `/api/webhooks/${webhook.id}`, { enabled: false });
    const refused = await trigger(webhook.token!);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('webhook_disabled');
    await t.api('PUT', `/api/webhooks/${webhook.id}`, { enabled: true });
    expect((await trigger(webhook.token!)).status).toBe(202);
  });

  it('rejects bad input and changes nothing', async () => {
    const webhook = await create();
    const before = (await t.api('GET', `/api/webhooks/${webhook.id}`)).body;
    const attempts: [unknown, string][] = [
      [{ name: 'New', promptTemplate: 'no placeholder' }, 'missing_payload_placeholder'],
      [{ name: 'New', token: 'chosen' }, 'unknown_field'],
      [{ name: 'New', regenerateToken: 'yes' }, 'invalid_field'],
      [{ regenerateToken: true, enabled: null }, 'invalid_field'],
      [[1, 2], 'invalid_body'],
    ];
    for (const [body, code] of attempts) {
      const response = await t.api('PUT', `/api/webhooks/${webhook.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe(code);
    }
    expect((await t.api('GET', `/api/webhooks/${webhook.id}`)).body).toEqual(before);
    expect((await trigger(webhook.token!)).status).toBe(202);
  });

  it('answers 404 for an unknown id', async () => {
    expect((await t.api('PUT', '/api/webhooks/whk_nope', { name: 'x' })).status).toBe(404);
    expect((await t.api('GET', '/api/webhooks/whk_nope')).status).toBe(404);
    expect((await t.api('DELETE', '/api/webhooks/whk_nope')).status).toBe(404);
  });
});

describe('list and delete', () => {
  it('lists webhooks and deletes one: its trigger URL dies with it', async () => {
    const webhook = await create();
    const listed = (await t.api('GET', '/api/webhooks')).body.webhooks as Webhook[];
    expect(listed.map((w) => w.id)).toContain(webhook.id);
    expect((await t.api('DELETE', `/api/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await trigger(webhook.token!)).status).toBe(404);
    expect((await t.api('GET', `/api/webhooks/${webhook.id}`)).status).toBe(404);
  });
});
