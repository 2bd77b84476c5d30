// Sender presets and signatures made by the senders' own libraries: Stripe's
// generateTestHeaderString, standardwebhooks, @octokit/webhooks-methods, and Slack's documented
// v0 example. Genuine ones are accepted, tampered ones refused; Slack's challenge is answered.
import { sign as githubSign } from '@octokit/webhooks-methods';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore } from '../support/core';

const clock = new ManualClock(new Date('2026-03-01T12:00:00.000Z'));
const nowSeconds = () => Math.floor(clock.now().getTime() / 1000);
let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock });
  const instance = (await t.api('GET', '/api/instances')).body.instances[0];
  await t.api('POST', `/api/instances/${instance.id}/stop`);
});
afterAll(() => t.close());

const create = async (body: object) => {
  const response = await t.api('POST', '/api/webhooks', { name: 'sender', ...body });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.webhook as Webhook;
};
const post = (webhook: Webhook, body: string, headers: Record<string, string>, contentType = 'application/json') =>
  request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body });
const promptOf = async (runId: string) => (await t.api('GET', `/api/runs/${runId}`)).body.run.prompt as string;

describe('stripe', () => {
  const secret = 'whsec_test_stripe_signing_secret';
  const stripe = new Stripe('sk_test_unused');
  const event = JSON.stringify({ id: 'evt_1Q2w3E', object: 'event', type: 'invoice.payment_failed', data: { object: { id: 'in_1', amount_due: 4200 } } }, null, 2);

  it('preset: scheme stripe, idempotency from the event id; Stripe’s own test header is accepted, a tampered one refused', async () => {
    const webhook = await create({ sender: 'stripe', signature: { secret } });
    expect(webhook).toMatchObject({ sender: 'stripe', signature: { scheme: 'stripe' }, idempotencyKey: '{{payload.id}}', maxPayloadBytes: 1_048_576 });
    const header = stripe.webhooks.generateTestHeaderString({ payload: event, secret, timestamp: nowSeconds() });
    const accepted = await post(webhook, event, { 'stripe-signature': header });
    expect(accepted.status).toBe(202);
    expect(await promptOf(accepted.body.run.id)).toContain('Stripe sent a "invoice.payment_failed" event (evt_1Q2w3E).');
    // Stripe retries with the same event: the original run.
    const retried = await post(webhook, event, { 'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: event, secret, timestamp: nowSeconds() }) });
    expect(retried.status).toBe(200);
    expect(retried.body.run.id).toBe(accepted.body.run.id);

    const tampered = await post(webhook, event.replace('4200', '1'), { 'stripe-signature': header });
    expect(tampered.status).toBe(401);
    const wrongSecret = stripe.webhooks.generateTestHeaderString({ payload: event, secret: 'whsec_other', timestamp: nowSeconds() });
    expect((await post(webhook, event, { 'stripe-signature': wrongSecret })).body.error.code).toBe('invalid_signature');
    const stale = stripe.webhooks.generateTestHeaderString({ payload: event, secret, timestamp: nowSeconds() - 600 });
    expect((await post(webhook, event, { 'stripe-signature': stale })).body.error.code).toBe('invalid_signature');
  });
});

describe('standard webhooks', () => {
  const secret = `whsec_${Buffer.from('a standard webhooks secret key').toString('base64')}`;

  it('accepts what the standardwebhooks library signs and refuses a tampered body or id', async () => {
    const webhook = await create({ promptTemplate: 'got {{payload.type}}: {{payload}}', signature: { scheme: 'standard', secret } });
    const body = '{"type":"user.created","data":{"id":42}}';
    const id = 'msg_2bM8Z1';
    const signature = new StandardWebhook(secret).sign(id, clock.now(), body);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds()), 'webhook-signature': signature };
    const accepted = await post(webhook, body, headers);
    expect(accepted.status).toBe(202);
    expect(await promptOf(accepted.body.run.id)).toBe(`got user.created: ${body}`);
    expect((await post(webhook, body.replace('42', '43'), headers)).status).toBe(401);
    expect((await post(webhook, body, { ...headers, 'webhook-id': 'msg_other' })).status).toBe(401);
  });
});

describe('github', () => {
  it('accepts what @octokit/webhooks-methods signs and refuses it signed with another secret', async () => {
    const webhook = await create({ sender: 'github', signature: { secret: 'the github secret' } });
    const body = '{"action":"opened","repository":{"full_name":"octo/repo"},"sender":{"login":"octocat"}}';
    const headers = { 'x-github-event': 'issues', 'x-github-delivery': 'd-1' };
    const accepted = await post(webhook, body, { ...headers, 'x-hub-signature-256': await githubSign('the github secret', body) });
    expect(accepted.status).toBe(202);
    expect(await promptOf(accepted.body.run.id)).toMatch(/^GitHub sent a "issues" event \(action: opened\) for octo\/repo, from octocat\./);
    const forged = await post(webhook, body, { ...headers, 'x-github-delivery': 'd-2', 'x-hub-signature-256': await githubSign('another secret', body) });
    expect(forged.status).toBe(401);
  });
});

describe('slack', () => {
  it('checks X-Slack-Signature (v0, timestamped) with Slack’s documented example', async () => {
    const slackClock = new ManualClock(new Date(1_531_420_618 * 1000));
    const other = await startTestCore({ clock: slackClock });
    try {
      const response = await other.api('POST', '/api/webhooks', { name: 'slash', sender: 'slack', promptTemplate: '{{payload.user_name}} ran {{payload.command}}', signature: { secret: '8f742231b10e8888abcd99yyyzzz85a5' } });
      const webhook = response.body.webhook as Webhook;
      expect(webhook.signature).toEqual({ scheme: 'slack' });
      const body =
        'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
      const headers = { 'x-slack-request-timestamp': '1531420618', 'x-slack-signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503' };
      const accepted = await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
      expect(accepted.status).toBe(202);
      // Form fields are payload fields too.
      expect((await other.api('GET', `/api/runs/${accepted.body.run.id}`)).body.run.prompt).toBe('roadrunner ran /webhook-collect');
      const tampered = await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: body.replace('foobar', 'foobaz') });
      expect(tampered.status).toBe(401);
      slackClock.advance(6 * 60_000);
      expect((await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body })).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('answers url_verification with the challenge, starts no run, and records it', async () => {
    const webhook = await create({ sender: 'slack' });
    expect(webhook.promptTemplate).toContain('{{payload.event.text}}');
    const response = await post(webhook, JSON.stringify({ token: 'Jhj5dZrVaK7ZwHHjRyZWjbDl', challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P', type: 'url_verification' }), {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ challenge: '3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P' });
    expect((await t.api('GET', `/api/runs?sourceId=${webhook.id}`)).body.runs).toEqual([]);
    const { deliveries } = (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries`)).body;
    expect(deliveries[0]).toMatchObject({ outcome: 'challenge', status: 200, runId: null });
  });
});

describe('presets', () => {
  it('leave every field to change: an explicit field wins at creation, and any can be updated later', async () => {
    const webhook = await create({ sender: 'github', maxPayloadBytes: 50_000, idempotencyKey: null, promptTemplate: 'Only {{payload.action}}' });
    expect(webhook).toMatchObject({ maxPayloadBytes: 50_000, idempotencyKey: null, promptTemplate: 'Only {{payload.action}}', signature: null });
    const updated = await t.api('PUT', `/api/webhooks/${webhook.id}`, { sender: 'generic', maxPayloadBytes: 10_240, fencePayload: true, idempotencyKey: '{{headers.x-request-id}}' });
    expect(updated.body.webhook).toMatchObject({ sender: 'generic', maxPayloadBytes: 10_240, fencePayload: true, idempotencyKey: '{{headers.x-request-id}}' });
  });

  it('a generic webhook needs a template, and a signature names its scheme', async () => {
    expect((await t.api('POST', '/api/webhooks', { name: 'x' })).body.error).toMatchObject({ code: 'missing_field', field: 'promptTemplate' });
    expect((await t.api('POST', '/api/webhooks', { name: 'x', promptTemplate: '{{payload}}', signature: { secret: 'long enough secret' } })).body.error).toMatchObject({ code: 'missing_field', field: 'signature.scheme' });
    expect((await t.api('POST', '/api/webhooks', { name: 'x', sender: 'gitlab', promptTemplate: '{{payload}}' })).body.error).toMatchObject({ code: 'invalid_field', field: 'sender' });
  });
});
