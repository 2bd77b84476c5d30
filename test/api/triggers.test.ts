// The trigger endpoint (seed op 6): payloads, limits, media types, idempotency, and the queued run
// it leaves in SQLite before answering.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run, Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
let webhook: Webhook;
beforeAll(async () => {
  t = await startTestCore();
  webhook = (await t.api('POST', '/api/webhooks', { name: 'hook', promptTemplate: 'Before {{payload}} middle {{payload}} after' })).body.webhook;
});
afterAll(() => t.close());

const triggerPath = () => `/api/webhooks/trigger/${webhook.token}`;
const post = (body: string | Uint8Array, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  request(t.url + triggerPath(), { method: 'POST', headers, body });
const runOf = async (id: string): Promise<Run> => (await t.api('GET', `/api/runs/${id}`)).body.run;

/** A raw HTTP exchange, for what fetch will not do: lie about Content-Length, stream slowly. */
function rawPost(headers: Record<string, string | number>, write: (req: http.ClientRequest) => void): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, method: 'POST', path: triggerPath(), headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close the socket right after answering 413 while we still write.
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    write(req);
  });
}

describe('POST trigger', () => {
  it('answers 202 with the run, already stored as queued with every {{payload}} replaced', async () => {
    const payload = '{"action":"failed","branch":"main"}';
    const response = await post(payload);
    expect(response.status).toBe(202);
    expect(Object.keys(response.body.run).sort()).toEqual(['id', 'status', 'threadId']);
    expect(response.body.run).toMatchObject({ status: 'queued', threadId: webhook.threadId });
    const run = await runOf(response.body.run.id);
    // The runner may already have taken it (the default agent fails at once until presets are wired up).
    expect(run).toMatchObject({ source: 'webhook', sourceId: webhook.id, instanceId: webhook.instanceId });
    expect(run.prompt).toBe(`Before ${payload} middle ${payload} after`);
  });

  it('inserts the body exactly as received: spacing, key order, escapes and $ patterns', async () => {
    const payload = '{ "b" : 1,\n  "a": "$& $1 $$ $` $\' \\u00e9 é 🚀" }';
    const response = await post(payload);
    expect((await runOf(response.body.run.id)).prompt).toBe(`Before ${payload} middle ${payload} after`);
  });

  it('takes JSON media types with parameters and +json types', async () => {
    expect((await post('[1,2]', { 'content-type': 'application/json; charset=utf-8' })).status).toBe(202);
    expect((await post('{"a":1}', { 'content-type': 'application/vnd.github+json' })).status).toBe(202);
  });

  it('rejects JSON that does not parse with invalid_json', async () => {
    for (const body of ['{"a":', 'not json', '{"a":1}}']) {
      const response = await post(body);
      expect(response.status, body).toBe(400);
      expect(response.body.error.code).toBe('invalid_json');
    }
  });

  it('inserts text bodies as text', async () => {
    const text = 'build 42 failed\nsee https://ci.example/42?x=1&y=2';
    const response = await post(text, { 'content-type': 'text/plain' });
    expect(response.status).toBe(202);
    expect((await runOf(response.body.run.id)).prompt).toBe(`Before ${text} middle ${text} after`);
    const form = await post('a=1&b=two', { 'content-type': 'application/x-www-form-urlencoded' });
    expect((await runOf(form.body.run.id)).prompt).toContain('a=1&b=two');
  });

  it('refuses binary bodies with 415', async () => {
    const binary = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]);
    for (const contentType of ['application/octet-stream', 'image/png', 'multipart/form-data; boundary=x']) {
      const response = await post(binary, { 'content-type': contentType });
      expect(response.status, contentType).toBe(415);
      expect(response.body.error.code).toBe('unsupported_media_type');
    }
    const invalidUtf8 = await post(binary, { 'content-type': 'text/plain' });
    expect(invalidUtf8.status).toBe(415);
  });

  it('treats an empty body as an empty payload', async () => {
    const response = await post('', {});
    expect(response.status).toBe(202);
    expect((await runOf(response.body.run.id)).prompt).toBe('Before  middle  after');
  });

  it('accepts exactly 10,240 bytes and refuses 10,241 with 413', async () => {
    const atLimit = JSON.stringify({ pad: 'x'.repeat(10_240 - 10) });
    expect(Buffer.byteLength(atLimit)).toBe(10_240);
    expect((await post(atLimit)).status).toBe(202);
    const over = JSON.stringify({ pad: 'x'.repeat(10_240 - 9) });
    const response = await post(over);
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('payload_too_large');
  });

  it('decides 413 from Content-Length before any body byte arrives', async () => {
    // The body is never sent: an answer can only come from the header.
    const response = await rawPost({ 'content-type': 'application/json', 'content-length': 50_000_000 }, (req) => req.flushHeaders());
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body).error.code).toBe('payload_too_large');
  });

  it('decides 413 while a chunked body streams, without waiting for its end', async () => {
    const response = await rawPost({ 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, (req) => {
      // 12 KiB are written and the request is never ended: only a streaming check can answer.
      for (let i = 0; i < 12; i++) req.write('y'.repeat(1024));
    });
    expect(response.status).toBe(413);
  });

  it('answers 404 for an unknown token and never stores anything', async () => {
    const before = (await t.api('GET', '/api/runs?limit=500')).body.runs.length;
    for (const token of ['nope', 'x'.repeat(43), webhook.token!.slice(0, -1), `${webhook.token}x`, encodeURIComponent('../../api/health')]) {
      const response = await request(`${t.url}/api/webhooks/trigger/${token}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
      expect(response.status, token).toBe(404);
      expect(response.body.error.code).toBe('not_found');
    }
    expect((await t.api('GET', '/api/runs?limit=500')).body.runs.length).toBe(before);
  });

  it('needs no Authorization header and ignores a wrong one', async () => {
    expect((await post('{}', { 'content-type': 'application/json', authorization: 'Bearer wrong' })).status).toBe(202);
  });
});

describe('refused requests', () => {
  it('are logged for a known webhook with their status and code, so its owner can see why', async () => {
    const hook = (await t.api('POST', '/api/webhooks', { name: 'refusals', promptTemplate: '{{payload}}' })).body.webhook as Webhook;
    const url = `${t.url}/api/webhooks/trigger/${hook.token}`;
    await request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    await request(url, { method: 'POST', headers: { 'content-type': 'image/png' }, body: 'x' });
    await request(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(20_000) });
    await t.api('PUT', `/api/webhooks/${hook.id}`, { enabled: false });
    await request(url, { method: 'POST', body: 'x' });
    await request(`${t.url}/api/webhooks/trigger/unknown-token`, { method: 'POST', body: 'x' });

    const rows = t.core.store.db.prepare('SELECT status, error_code AS code FROM deliveries WHERE webhook_id = ? ORDER BY received_at, id').all(hook.id);
    expect(rows).toEqual([
      { status: 400, code: 'invalid_json' },
      { status: 415, code: 'unsupported_media_type' },
      { status: 413, code: 'payload_too_large' },
      { status: 403, code: 'webhook_disabled' },
    ]);
  });
});

describe('GET trigger', () => {
  it('inserts the query parameters as a JSON object', async () => {
    const response = await request(`${t.url}${triggerPath()}?branch=main&tag=a&tag=b&empty=`, {});
    expect(response.status).toBe(202);
    const prompt = (await runOf(response.body.run.id)).prompt;
    const inserted = prompt.slice('Before '.length, prompt.indexOf(' middle '));
    expect(JSON.parse(inserted)).toEqual({ branch: 'main', tag: ['a', 'b'], empty: '' });
  });

  it('inserts the empty string when there are no parameters', async () => {
    const response = await request(t.url + triggerPath(), {});
    expect(response.status).toBe(202);
    expect((await runOf(response.body.run.id)).prompt).toBe('Before  middle  after');
  });

  it('does not answer HEAD, so a HEAD never starts a run', async () => {
    const before = (await t.api('GET', `/api/runs?sourceId=${webhook.id}&limit=500`)).body.runs.length;
    const response = await fetch(t.url + triggerPath(), { method: 'HEAD' });
    expect(response.status).toBe(404);
    expect((await t.api('GET', `/api/runs?sourceId=${webhook.id}&limit=500`)).body.runs.length).toBe(before);
  });
});

describe('Idempotency-Key', () => {
  it('returns the original run with 200 for a key seen before, per webhook', async () => {
    const first = await post('{"n":1}', { 'content-type': 'application/json', 'idempotency-key': 'delivery-1' });
    expect(first.status).toBe(202);
    const again = await post('{"n":2}', { 'content-type': 'application/json', 'idempotency-key': 'delivery-1' });
    expect(again.status).toBe(200);
    expect(again.body.run.id).toBe(first.body.run.id);
    const github = await post('{}', { 'content-type': 'application/json', 'x-github-delivery': 'delivery-1' });
    expect(github.status).toBe(200);
    expect(github.body.run.id).toBe(first.body.run.id);

    const other = (await t.api('POST', '/api/webhooks', { name: 'other', promptTemplate: '{{payload}}' })).body.webhook as Webhook;
    const elsewhere = await request(`${t.url}/api/webhooks/trigger/${other.token}`, { method: 'POST', headers: { 'idempotency-key': 'delivery-1' }, body: 'x' });
    expect(elsewhere.status).toBe(202);
    expect(elsewhere.body.run.id).not.toBe(first.body.run.id);
  });

  it('makes one run of many concurrent requests with one key', async () => {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => post('{}', { 'content-type': 'application/json', 'idempotency-key': 'concurrent-1' })),
    );
    const ids = new Set(responses.map((r) => r.body.run.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.status === 202)).toHaveLength(1);
  });
});

describe('under concurrency', () => {
  it('stores every accepted trigger: 300 concurrent requests, 300 distinct runs', async () => {
    const hook = (await t.api('POST', '/api/webhooks', { name: 'load', promptTemplate: 'n={{payload}}' })).body.webhook as Webhook;
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, n) => request(`${t.url}/api/webhooks/trigger/${hook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: String(n) })),
    );
    expect(responses.every((r) => r.status === 202)).toBe(true);
    const runs = (await t.api('GET', `/api/runs?sourceId=${hook.id}&limit=500`)).body.runs as Run[];
    expect(runs).toHaveLength(300);
    expect(new Set(runs.map((r) => r.prompt)).size).toBe(300);
  });
});
