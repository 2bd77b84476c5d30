// Text is text, at every door that takes JSON: invalid UTF-8 and lone surrogates are 400
// invalid_json naming the byte offset (never stored as U+FFFD), and names refuse NUL and other
// control characters (automations, webhooks, instances, API keys, notification channels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
let webhook: Webhook;
beforeAll(async () => {
  t = await startTestCore();
  webhook = (await t.api('POST', '/api/webhooks', { name: 'hook', promptTemplate: 'Got {{payload}}' })).body.webhook;
});
afterAll(() => t.close());

/** A JSON body as bytes: `before`, the raw bytes, `after`. */
const bytes = (before: string, raw: number[], after: string) => Buffer.concat([Buffer.from(before), Buffer.from(raw), Buffer.from(after)]);
const send = (method: string, path: string, body: Uint8Array, auth = true) =>
  request(t.url + path, { method, headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${t.key}` } : {}) }, body });
const automation = (name: string) => `"name":${name},"prompt":"p","cronExpression":"0 9 * * *"}`;

describe('JSON bodies must be UTF-8 text', () => {
  it('refuses a 0xFF byte with invalid_json naming its offset, and stores nothing', async () => {
    const before = (await t.api('GET', '/api/automations')).body.automations.length;
    const body = bytes('{"name":"n', [0xff], `","prompt":"p","cronExpression":"0 9 * * *"}`);
    const response = await send('POST', '/api/automations', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(response.body.error.message).toContain('offset 10');
    expect((await t.api('GET', '/api/automations')).body.automations).toHaveLength(before);
  });

  it('refuses overlong forms and UTF-8-encoded surrogates (CESU-8) at the offset they start', async () => {
    const overlong = await send('POST', '/api/automations', bytes('{"name":"', [0xc0, 0xaf], `",${automation('"x"').slice(1)}`));
    expect(overlong.body.error).toMatchObject({ code: 'invalid_json' });
    expect(overlong.body.error.message).toContain('offset 9');
    const cesu = await send('POST', '/api/automations', bytes('{"name":"ab', [0xed, 0xa0, 0x80], '"}'));
    expect(cesu.body.error.message).toContain('offset 11');
  });

  it('refuses lone surrogates given as escapes, naming the escape’s offset; a pair is text', async () => {
    const lone = await send('POST', '/api/automations', Buffer.from(`{${automation('"n\\ud800"')}`));
    expect(lone.status).toBe(400);
    expect(lone.body.error.code).toBe('invalid_json');
    expect(lone.body.error.message).toContain('offset 10');
    const lowFirst = await send('POST', '/api/automations', Buffer.from(`{${automation('"\\udc00\\ud800"')}`));
    expect(lowFirst.body.error.message).toContain('offset 9');
    // An escaped backslash followed by "ud800" is plain text, not an escape.
    const escaped = await send('POST', '/api/automations', Buffer.from(`{${automation('"a\\\\ud800 \\ud83d\\ude00"')}`));
    expect(escaped.status).toBe(201);
    expect(escaped.body.automation.name).toBe('a\\ud800 😀');
  });

  it('holds PUT and PATCH bodies to the same rule', async () => {
    const id = (await t.api('GET', '/api/instances')).body.instances[0].id;
    const response = await send('PATCH', `/api/instances/${id}`, bytes('{"name":"', [0xfe], '"}'));
    expect(response.body.error.code).toBe('invalid_json');
    const put = await send('PUT', `/api/webhooks/${webhook.id}`, Buffer.from('{"name":"\\udfff"}'));
    expect(put.body.error.code).toBe('invalid_json');
  });

  it('refuses the same bytes on the trigger listener as invalid_json, not 415', async () => {
    const response = await send('POST', `/api/webhooks/trigger/${webhook.token}`, bytes('{"a":"', [0xff], '"}'), false);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
    expect(response.body.error.message).toContain('offset 6');
    const lone = await send('POST', `/api/webhooks/trigger/${webhook.token}`, Buffer.from('{"a":"\\ud800"}'), false);
    expect(lone.body.error.code).toBe('invalid_json');
    // Text bodies that are not JSON keep their rule: not text, 415.
    const binary = await request(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: Buffer.from([0xff]) });
    expect(binary.status).toBe(415);
  });
});

describe('names are one line of text', () => {
  const withControl = ['n\u0000', 'a\nb', 'tab\there', 'del\u007f', 'c1\u0085', 'sep\u2028arator'];

  it('refuses control characters in automation, webhook and instance names', async () => {
    for (const name of withControl) {
      const created = await t.api('POST', '/api/automations', { name, prompt: 'p', cronExpression: '0 9 * * *' });
      expect(created.status, JSON.stringify(name)).toBe(400);
      expect(created.body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
      expect(created.body.error.message).toContain('control characters');
    }
    expect((await t.api('PUT', `/api/webhooks/${webhook.id}`, { name: 'x\u0000' })).body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
    expect((await t.api('POST', '/api/instances', { name: 'i\u0000' })).body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
  });

  it('refuses them in API key and notification channel names', async () => {
    const key = await t.api('POST', '/api/keys', { name: 'ci\u0000' });
    expect(key.body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
    const channel = await t.api('POST', '/api/notification-channels', { name: 'ops\u0007', kind: 'ntfy', url: 'https://ntfy.sh/topic' });
    expect(channel.body.error).toMatchObject({ code: 'invalid_field', field: 'name' });
  });

  it('takes names in any script, with emoji', async () => {
    const created = await t.api('POST', '/api/automations', { name: 'Ünïcödé 日本語 👩‍💻', prompt: 'p', cronExpression: '0 9 * * *' });
    expect(created.status).toBe(201);
    expect(created.body.automation.name).toBe('Ünïcödé 日本語 👩‍💻');
  });
});
