// Deliveries: every request to a known webhook is recorded (credentials redacted), listed newest
// first page by page, shown whole, replayed as a new run with the original's prompt, and trimmed
// by the retention settings.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery, DeliverySummary, Webhook } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore } from '../support/core';

const clock = new ManualClock(new Date('2026-05-01T08:00:00.000Z'));
const secret = 'deliveries test secret';
let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock });
  const instance = (await t.api('GET', '/api/instances')).body.instances[0];
  await t.api('POST', `/api/instances/${instance.id}/stop`);
});
afterAll(() => t.close());

const create = async (body: object = {}) => (await t.api('POST', '/api/webhooks', { name: 'logged', promptTemplate: 'Event {{payload.event}}: {{payload}}', ...body })).body.webhook as Webhook;
const signed = (body: string | Buffer) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const list = async (webhook: Webhook, query = '') => (await t.api('GET', `/api/webhooks/${webhook.id}/deliveries${query}`)).body as { deliveries: DeliverySummary[]; nextBefore: string | null };
const getDelivery = async (id: string) => (await t.api('GET', `/api/deliveries/${id}`)).body.delivery as Delivery;

describe('recording', () => {
  it('records accepted and refused requests with status, code, run, redacted headers and the body', async () => {
    const webhook = await create({ signature: { scheme: 'github', secret } });
    const body = '{"event":"deploy"}';
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': signed(body), authorization: 'Bearer s3cret', cookie: 'session=abc', 'x-request-id': 'r-1' };
    const accepted = await request(`${webhook.triggerUrl}?env=prod&token=hidden`, { method: 'POST', headers, body });
    await request(webhook.triggerUrl!, { method: 'POST', headers: { ...headers, 'x-hub-signature-256': 'sha256=00' }, body });
    await request(webhook.triggerUrl!, { method: 'POST', headers: { ...headers, 'content-type': 'image/png', 'x-hub-signature-256': signed(Buffer.from([0xff])) }, body: Buffer.from([0xff]) });

    const { deliveries } = await list(webhook);
    expect(deliveries.map((d) => [d.outcome, d.status, d.errorCode])).toEqual([
      ['refused', 415, 'unsupported_media_type'],
      ['refused', 401, 'invalid_signature'],
      ['accepted', 202, null],
    ]);
    const first = await getDelivery(deliveries[2].id);
    expect(first).toMatchObject({ method: 'POST', contentType: 'application/json', runId: accepted.body.run.id, origin: 'sender', replayOf: null, body, bodyEncoding: 'utf8', bodyBytes: body.length, replayable: true });
    expect(first.headers).toMatchObject({ 'x-request-id': 'r-1', authorization: '[redacted]', cookie: '[redacted]', 'x-hub-signature-256': '[redacted]' });
    expect(first.query).toEqual({ env: 'prod', token: '[redacted]' });
    expect(JSON.stringify(first)).not.toMatch(/s3cret|session=abc|hidden/);
    expect(JSON.stringify(t.core.store.db.prepare('SELECT headers, query FROM deliveries').all())).not.toMatch(/s3cret|session=abc|hidden/);
    expect(await getDelivery(deliveries[0].id)).toMatchObject({ body: '/w==', bodyEncoding: 'base64' });
  });

  it('lists newest first, page by page', async () => {
    const webhook = await create();
    for (let n = 0; n < 5; n++) await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"event":${n}}` });
    const page1 = await list(webhook, '?limit=2');
    const page2 = await list(webhook, `?limit=2&before=${page1.nextBefore}`);
    const page3 = await list(webhook, `?limit=2&before=${page2.nextBefore}`);
    const bodies = await Promise.all([...page1.deliveries, ...page2.deliveries, ...page3.deliveries].map(async (d) => (await getDelivery(d.id)).body));
    expect(bodies).toEqual(['{"event":4}', '{"event":3}', '{"event":2}', '{"event":1}', '{"event":0}']);
    expect(page3.nextBefore).toBeNull();
    expect((await t.api('GET', '/api/webhooks/whk_nope/deliveries')).status).toBe(404);
    expect((await t.api('GET', '/api/deliveries/dlv_nope')).status).toBe(404);
  });
});

describe('replay', () => {
  it('makes a new run, labelled as a replay, whose prompt equals the original’s; signature and idempotency checks skipped', async () => {
    const webhook = await create({ signature: { scheme: 'github', secret }, fencePayload: true });
    const body = '{"event":"release","tag":"v1.2.0"}';
    const original = await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signed(body), 'idempotency-key': 'k-1' }, body });
    const [delivery] = (await list(webhook)).deliveries;
    clock.advance(60_000);
    const replayed = await t.api('POST', `/api/deliveries/${delivery.id}/replay`);
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({ skipped: false, reason: null, run: { status: 'queued' } });
    expect(replayed.body.run.id).not.toBe(original.body.run.id);
    const [originalRun, replayRun] = await Promise.all([original.body.run.id, replayed.body.run.id].map(async (id: string) => (await t.api('GET', `/api/runs/${id}`)).body.run));
    expect(replayRun.prompt).toBe(originalRun.prompt);
    expect(replayRun).toMatchObject({ replayOf: delivery.id, createdAt: clock.now().toISOString(), threadId: webhook.threadId });
    expect(originalRun.replayOf).toBeNull();
    const replayDelivery = await getDelivery(replayed.body.deliveryId);
    expect(replayDelivery).toMatchObject({ origin: 'replay', replayOf: delivery.id, outcome: 'accepted', runId: replayRun.id, body });
  });

  it('applies the filter as it is now', async () => {
    const webhook = await create();
    await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"event":"push"}' });
    const [delivery] = (await list(webhook)).deliveries;
    await t.api('PUT', `/api/webhooks/${webhook.id}`, { filter: [{ payload: 'event', equals: 'release' }] });
    const replayed = await t.api('POST', `/api/deliveries/${delivery.id}/replay`);
    expect(replayed.body).toMatchObject({ run: null, skipped: true, reason: 'payload event is "push", not "release"' });
    expect((await getDelivery(replayed.body.deliveryId)).outcome).toBe('skipped');
  });

  it('replays a GET from its query, and refuses what cannot be replayed', async () => {
    const webhook = await create({ promptTemplate: 'env={{payload.env}}' });
    await request(`${webhook.triggerUrl}?env=staging`, {});
    await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(20_000) });
    const [tooLarge, get] = (await list(webhook)).deliveries;
    const replayed = await t.api('POST', `/api/deliveries/${get.id}/replay`);
    expect((await t.api('GET', `/api/runs/${replayed.body.run.id}`)).body.run.prompt).toBe('env=staging');
    const refused = await t.api('POST', `/api/deliveries/${tooLarge.id}/replay`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('not_replayable');
    await t.api('PUT', `/api/webhooks/${webhook.id}`, { enabled: false });
    expect((await t.api('POST', `/api/deliveries/${get.id}/replay`)).body.error.code).toBe('webhook_disabled');
    expect((await t.api('POST', '/api/deliveries/dlv_nope/replay')).status).toBe(404);
  });
});

describe('what Steward did, apart from how the run went', () => {
  it("reads each delivery's run as it is now: a duplicate's original run, a run ended since", async () => {
    const webhook = await create();
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'once' };
    const original = await request(webhook.triggerUrl!, { method: 'POST', headers, body: '{"event":1}' });
    await request(webhook.triggerUrl!, { method: 'POST', headers, body: '{"event":1}' });
    await t.api('POST', `/api/runs/${original.body.run.id}/cancel`);
    const { deliveries } = await list(webhook);
    expect(deliveries.map((d) => [d.outcome, d.run])).toEqual([
      ['duplicate', { id: original.body.run.id, status: 'cancelled', why: 'before it started' }],
      ['accepted', { id: original.body.run.id, status: 'cancelled', why: 'before it started' }],
    ]);
  });

  it('replays a refused delivery (a bad signature) only when asked with force', async () => {
    const webhook = await create({ signature: { scheme: 'github', secret } });
    await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': 'sha256=00' }, body: '{"event":"forged"}' });
    const [refused] = (await list(webhook)).deliveries;
    expect(refused).toMatchObject({ outcome: 'refused', errorCode: 'invalid_signature', run: null, replayable: true });
    const asked = await t.api('POST', `/api/deliveries/${refused.id}/replay`);
    expect(asked.status).toBe(409);
    expect(asked.body.error).toMatchObject({ code: 'refused_delivery', message: expect.stringContaining('This delivery was refused: its signature did not match.') });
    expect((await list(webhook)).deliveries).toHaveLength(1);
    const forced = await t.api('POST', `/api/deliveries/${refused.id}/replay`, { force: true });
    expect(forced.status).toBe(202);
    expect((await t.api('GET', `/api/runs/${forced.body.run.id}`)).body.run.prompt).toContain('Event forged');
  });
});

describe('test payloads', () => {
  it('are recorded as test deliveries and can be skipped by the filter', async () => {
    const webhook = await create({ filter: [{ payload: 'event', exists: true }] });
    const accepted = await t.api('POST', `/api/webhooks/${webhook.id}/test`, { payload: '{"event":"ping"}' });
    expect(accepted.status).toBe(202);
    expect(accepted.body.run).toMatchObject({ status: 'queued' });
    const skipped = await t.api('POST', `/api/webhooks/${webhook.id}/test`, { payload: 'plain text' });
    expect(skipped.body).toMatchObject({ run: null, skipped: true, reason: 'payload event is missing' });
    expect((await list(webhook)).deliveries.map((d) => [d.origin, d.outcome])).toEqual([['test', 'skipped'], ['test', 'accepted']]);
  });
});

describe('retention', () => {
  it('keeps the newest per webhook and drops those past the age limit', async () => {
    const webhook = await create();
    for (let n = 0; n < 6; n++) await request(webhook.triggerUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"event":${n}}` });
    expect((await t.api('GET', '/api/settings')).body.settings.deliveries).toEqual({ retentionDays: 7, retentionPerWebhook: 1000 });
    await t.api('PATCH', '/api/settings', { deliveries: { retentionPerWebhook: 4 } });
    t.core.services.deliveries.trim();
    const kept = (await list(webhook)).deliveries;
    expect(await Promise.all(kept.map(async (d) => (await getDelivery(d.id)).body))).toEqual(['{"event":5}', '{"event":4}', '{"event":3}', '{"event":2}']);
    // Eight days on at once (ticking the scheduler through every minute of them is not the point).
    clock.jumpTo(new Date(clock.now().getTime() + 8 * 24 * 3_600_000));
    t.core.services.deliveries.trim();
    expect((await list(webhook)).deliveries).toEqual([]);
  });
});
