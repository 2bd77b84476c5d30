// Per-webhook payload limits, and a 413 that a sender still sending its body actually reads
// (lingering close), whether it reads while it writes (fetch) or only after (a raw socket).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const create = async (extra: object = {}) => (await t.api('POST', '/api/webhooks', { name: 'limits', promptTemplate: '{{payload}}', ...extra })).body.webhook as Webhook;
const json = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });
const fiveMegabytes = () => Buffer.alloc(5 * 1024 * 1024, 'x');

/** Writes the whole request before reading a byte of the answer, as many simple clients do. */
function writeThenRead(url: string, body: Buffer): Promise<string> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    socket.pause();
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}: ${answer}`));
    socket.on('end', () => resolve(answer));
    socket.write(`POST ${pathname} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body, () => socket.resume());
  });
}

describe('maxPayloadBytes', () => {
  it('defaults to the seed’s 10,240 bytes and is at most 1 MiB', async () => {
    expect((await create()).maxPayloadBytes).toBe(10_240);
    for (const maxPayloadBytes of [0, 1_048_577, 1.5, '10']) {
      const response = await t.api('POST', '/api/webhooks', { name: 'x', promptTemplate: '{{payload}}', maxPayloadBytes });
      expect(response.status, String(maxPayloadBytes)).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'invalid_field', field: 'maxPayloadBytes' });
    }
  });

  it('is the limit of that webhook alone, and can be changed', async () => {
    const large = await create({ maxPayloadBytes: 30_000 });
    const seed = await create();
    const body = json(27_000);
    expect((await request(large.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(202);
    expect((await request(seed.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(413);
    await t.api('PUT', `/api/webhooks/${large.id}`, { maxPayloadBytes: 20_000 });
    expect((await request(large.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status).toBe(413);
    expect((await request(large.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json(20_000) })).status).toBe(202);
  });

  it('takes 1 MiB exactly at its highest', async () => {
    const webhook = await create({ maxPayloadBytes: 1_048_576 });
    expect((await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json(1_048_576) })).status).toBe(202);
    expect((await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json(1_048_577) })).status).toBe(413);
  });
});

describe('413 while the sender is still sending', () => {
  it('reaches fetch posting 5 MB to a seed-default webhook, body buffered or streamed', async () => {
    const webhook = await create();
    for (let attempt = 0; attempt < 3; attempt++) {
      const buffered = await fetch(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: fiveMegabytes() });
      expect(buffered.status).toBe(413);
      expect(((await buffered.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
    }
    const chunks = fiveMegabytes();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < chunks.length; offset += 65_536) controller.enqueue(chunks.subarray(offset, offset + 65_536));
        controller.close();
      },
    });
    const streamed = await fetch(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: stream, duplex: 'half' });
    expect(streamed.status).toBe(413);
  });

  it('reaches a client that writes all 5 MB before it reads anything', async () => {
    const webhook = await create();
    const answer = await writeThenRead(webhook.triggerUrl!, fiveMegabytes());
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('payload_too_large');
  });

  it('records the refusal with the declared size in its message', async () => {
    const webhook = await create();
    await fetch(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: fiveMegabytes() });
    const { deliveries } = (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ status: 413, outcome: 'refused', errorCode: 'payload_too_large', bodyBytes: null, replayable: false });
    expect(deliveries[0].message).toContain('5242880 bytes');
  });
});
