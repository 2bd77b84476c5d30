// Signed webhooks: GitHub, Stripe and Standard Webhooks signatures checked against the body as
// received, with the test vectors those senders document.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore } from '../support/core';

// The Standard Webhooks test vector was signed at this instant; the clock stands there.
const vectorTime = new Date(1_614_265_330 * 1000);
let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: new ManualClock(vectorTime) });
});
afterAll(() => t.close());

const create = async (signature: object | undefined) =>
  (await t.api('POST', '/api/webhooks', { name: 'signed', promptTemplate: 'got {{payload}}', ...(signature ? { signature } : {}) })).body.webhook as Webhook;
const post = (webhook: Webhook, body: string, headers: Record<string, string>) => request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'text/plain', ...headers }, body });

describe('GitHub X-Hub-Signature-256', () => {
  // From GitHub's documentation on validating webhook deliveries.
  const secret = "It's a Secret to Everybody";
  const documented = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it('accepts the documented signature and refuses a wrong, missing or stale-body one', async () => {
    const webhook = await create({ scheme: 'github', secret });
    expect(webhook.signature).toEqual({ scheme: 'github' });
    expect(JSON.stringify(webhook)).not.toContain(secret);
    expect(JSON.stringify(t.core.store.db.prepare('SELECT * FROM webhooks').all())).not.toContain(secret);

    expect((await post(webhook, 'Hello, World!', { 'x-hub-signature-256': documented })).status).toBe(202);
    for (const [body, headers] of [
      ['Hello, World!!', { 'x-hub-signature-256': documented }],
      ['Hello, World!', { 'x-hub-signature-256': documented.replace(/.$/, '0') }],
      ['Hello, World!', {}],
    ] as const) {
      const refused = await post(webhook, body, headers);
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('invalid_signature');
    }
  });
});

describe('Stripe-Signature', () => {
  const secret = 'whsec_test_stripe_secret';
  const sign = (timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  const now = Math.floor(vectorTime.getTime() / 1000);

  it('accepts a fresh signature among others, refuses an old or wrong one', async () => {
    const webhook = await create({ scheme: 'stripe', secret });
    const body = '{"id":"evt_1","type":"charge.failed"}';
    const good = await post(webhook, body, { 'stripe-signature': `t=${now},v1=${'0'.repeat(64)},v1=${sign(now, body)},v0=abc` });
    expect(good.status).toBe(202);
    const old = now - 6 * 60;
    expect((await post(webhook, body, { 'stripe-signature': `t=${old},v1=${sign(old, body)}` })).body.error.code).toBe('invalid_signature');
    expect((await post(webhook, body, { 'stripe-signature': `t=${now},v1=${sign(now, `${body} `)}` })).body.error.code).toBe('invalid_signature');
    expect((await post(webhook, body, { 'stripe-signature': `v1=${sign(now, body)}` })).body.error.code).toBe('invalid_signature');
  });
});

describe('Standard Webhooks', () => {
  // The specification's test vector.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const headers = {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  };
  const body = '{"test": 2432232314}';

  it('accepts the specification vector and refuses changes to the id, time, body or signature', async () => {
    const webhook = await create({ scheme: 'standard', secret });
    const accepted = await post(webhook, body, { ...headers, 'content-type': 'application/json' });
    expect(accepted.status).toBe(202);
    expect((await t.api('GET', `/api/runs/${accepted.body.run.id}`)).body.run.prompt).toBe(`got ${body}`);
    for (const changed of [{ 'webhook-id': 'msg_other' }, { 'webhook-timestamp': '1614265331' }, { 'webhook-signature': 'v1,AAAA' }]) {
      expect((await post(webhook, body, { ...headers, ...changed })).body.error.code).toBe('invalid_signature');
    }
    expect((await post(webhook, `${body}\n`, headers)).body.error.code).toBe('invalid_signature');
  });
});

describe('changing the check', () => {
  it('is removed with null, and an unsigned trigger is then accepted; bad settings are refused', async () => {
    const webhook = await create({ scheme: 'github', secret: 'a long enough secret' });
    expect((await post(webhook, 'x', {})).status).toBe(401);
    const updated = await t.api('PUT', `/api/webhooks/${webhook.id}`, { signature: null });
    expect(updated.body.webhook.signature).toBeNull();
    expect((await post(webhook, 'x', {})).status).toBe(202);
    expect((await t.api('PUT', `/api/webhooks/${webhook.id}`, { signature: { scheme: 'gitlab', secret: 'a long enough secret' } })).body.error).toMatchObject({ code: 'invalid_field', field: 'signature.scheme' });
    expect((await t.api('PUT', `/api/webhooks/${webhook.id}`, { signature: { scheme: 'github', secret: 'short' } })).body.error).toMatchObject({ code: 'invalid_field', field: 'signature.secret' });
    expect((await t.api('PUT', `/api/webhooks/${webhook.id}`, { signature: { scheme: 'github' } })).body.error).toMatchObject({ code: 'missing_field', field: 'signature.secret' });
  });
});
