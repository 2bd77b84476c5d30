// Requests that stall and clients that hoard connections: a request whose body stops arriving is
// answered 408 (the API's error shape) and closed after the request timeout, on the API, on the
// trigger path and on the triggers-only listener the tunnel forwards to; one client address holds at
// most so many connections (429 for the next). The timeout is shortened here; users get 20 s,
// checked every 5 s, so a stalled body is gone within 25 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildHttpApp } from '../../src/main/core/http/app';
import { defaultHttpLimits } from '../../src/main/core/http/limits';
import { silentLogger } from '../../src/main/core/logger';
import type { Webhook } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { type RawConnection, bodyOf, rawConnect } from '../support/raw-http';

const limits = { ...defaultHttpLimits, requestTimeoutMs: 300, connectionsPerClient: 6 };
let t: TestCore;
let webhook: Webhook;
beforeAll(async () => {
  t = await startTestCore({ httpLimits: limits });
  // Made through the core, not HTTP: on a busy machine the request itself could outlast the 300 ms this test gives requests.
  webhook = ((await t.core.dispatch('webhooks.create', { body: { name: 'slow sender', promptTemplate: 'Got {{payload}}' } })) as { webhook: Webhook }).webhook;
});
afterAll(() => t.close());

/** A POST whose body promises `length` bytes and sends 10. */
const halfPost = (path: string, length: number, auth = true) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${auth ? `Authorization: Bearer ${t.key}\r\n` : ''}\r\n{"name":"x`;

async function expectTimedOut(connection: RawConnection): Promise<void> {
  const answer = await connection.closed;
  expect(answer.toString()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
  expect(bodyOf(answer)).toMatchObject({ error: { code: 'request_timeout' } });
}

describe('a request whose body stalls', () => {
  it('is answered 408 and closed on the API', async () => {
    await expectTimedOut(await rawConnect(t.url, halfPost('/api/automations', 100)));
  });

  it('is answered 408 and closed on the trigger path, and recorded as a timed-out delivery', async () => {
    await expectTimedOut(await rawConnect(t.url, halfPost(`/api/webhooks/trigger/${webhook.token}`, 9_000, false)));
    await expect
      .poll(async () => (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body.deliveries[0])
      .toMatchObject({ status: 408, errorCode: 'request_timeout' });
  });

  it('is answered 408 and closed on the triggers-only listener', async () => {
    const triggersOnly = await buildHttpApp({ services: t.core.services, dispatch: t.core.dispatch, logger: silentLogger() }, { triggersOnly: true, limits });
    await triggersOnly.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = triggersOnly.server.address() as { port: number };
      await expectTimedOut(await rawConnect(`http://127.0.0.1:${port}`, halfPost(`/api/webhooks/trigger/${webhook.token}`, 9_000, false)));
    } finally {
      await triggersOnly.close();
    }
  });

  it('leaves a request that arrives whole alone', async () => {
    const response = await t.api('POST', '/api/automations', { name: 'whole', prompt: 'p', cronExpression: '0 9 * * *' });
    expect(response.status).toBe(201);
  });
});

describe('connections per client', () => {
  it('holds at most connectionsPerClient open; the next is answered 429 and closed; a closed one frees a place', async () => {
    // A core of its own: no pooled keep-alive connection of another test counts against the cap.
    const own = await startTestCore({ httpLimits: limits });
    const held = await Promise.all(Array.from({ length: limits.connectionsPerClient }, () => rawConnect(own.url)));
    try {
      // Connections are accepted in the order they came: this one is over the cap.
      const extra = await rawConnect(own.url, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      const answer = await extra.closed;
      expect(answer.toString()).toMatch(/^HTTP\/1\.1 429 Too Many Requests\r\n/);
      expect(answer.toString()).toContain('Retry-After: 1');
      expect(bodyOf(answer)).toMatchObject({ error: { code: 'too_many_connections' } });
      // The ones within the cap are untouched, and serve.
      for (const connection of held) expect(connection.socket.destroyed || connection.received().length > 0).toBe(false);
      held[0].socket.write(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      await held[0].until('HTTP/1.1 200 OK');
      held.pop()!.socket.destroy();
      await expect
        .poll(async () => {
          const again = await rawConnect(own.url, `GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
          return (await again.closed).toString().split('\r\n')[0];
        })
        .toBe('HTTP/1.1 200 OK');
    } finally {
      for (const connection of held) connection.socket.destroy();
      await own.close();
    }
  });
});
