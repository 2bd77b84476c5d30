// Run notifications leaving the machine: a failed run posts a Standard Webhooks event that the
// `standardwebhooks` library verifies; a failing receiver is retried and each attempt recorded; a
// delivery that fails for good leaves a system line and never changes the run; channels choose
// runs by outcome and source; pending deliveries resume after a restart.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { NotificationDelivery, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { type Answer, type Received, type Receiver, startReceiver } from '../support/receiver';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

const timing = { retryDelaysMs: [20, 40], attemptTimeoutMs: 2_000 };
const failing = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'exit 3'] };
const passing = { provider: 'command', preset: 'custom', command: 'true' };

let t: TestCore;
let failingInstance: string;
let passingInstance: string;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, notificationTiming: timing });
  failingInstance = (await t.api('POST', '/api/instances', { name: 'Breaks', agent: failing })).body.instance.id;
  passingInstance = (await t.api('POST', '/api/instances', { name: 'Works', agent: passing })).body.instance.id;
});
afterAll(() => t.close());
afterEach(async () => {
  // Each test's channels go, so the next one's runs reach only its own.
  for (const channel of (await t.api('GET', '/api/notification-channels')).body.channels) await t.api('DELETE', `/api/notification-channels/${channel.id}`);
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(answer?: (request: Received, index: number) => Answer): Promise<Receiver> {
  const started = await startReceiver(answer);
  receivers.push(started);
  return started;
}

const channel = async (body: object) => {
  const response = await t.api('POST', '/api/notification-channels', body);
  expect(response.status, response.text).toBe(201);
  return response.body as { channel: { id: string }; signingSecret: string | null };
};

const runOn = async (instanceId: string): Promise<Run> => settled(t, (await t.api('POST', '/api/runs', { instanceId, prompt: 'go' })).body.run.id as string);

/** The run's deliveries once none is pending (bounded). */
function finishedDeliveries(runId: string, count = 1): Promise<NotificationDelivery[]> {
  const deliveries = async () => ((await t.api('GET', `/api/runs/${runId}/notifications`)).body as { deliveries: NotificationDelivery[] }).deliveries;
  return waitFor(deliveries, { what: `${count} deliveries of ${runId}, none pending`, timeoutMs: 10_000, until: (all) => all.length >= count && all.every((delivery) => delivery.status !== 'pending') });
}

describe('a failed run', () => {
  it('posts a signed event that standardwebhooks verifies, and records it delivered with the response', async () => {
    const hook = await receiver(() => ({ status: 202, body: 'thanks' }));
    const { channel: made, signingSecret } = await channel({ name: 'Ops', kind: 'webhook', url: `${hook.url}/hooks/steward` });
    expect(signingSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const run = await runOn(failingInstance);
    expect(run.status).toBe('failed');
    const [request] = await hook.waitFor(1);
    expect(request.path).toBe('/hooks/steward');
    const payload = new Webhook(signingSecret!).verify(request.body, request.headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    const durationSeconds = Math.round((Date.parse(run.finishedAt!) - Date.parse(run.startedAt!)) / 100) / 10;
    expect(payload).toEqual({
      type: 'run.failed',
      timestamp: run.finishedAt,
      data: {
        runId: run.id, status: 'failed', error: run.error, outcome: null, summary: null, source: { type: 'api', id: null, name: 'API' }, instance: { id: failingInstance, name: 'Breaks' },
        startedAt: run.startedAt, finishedAt: run.finishedAt, durationSeconds, url: `${t.url}/#/runs/${run.id}`,
      },
    });
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request.body, request.headers)).toThrow();

    const [delivery] = await finishedDeliveries(run.id);
    expect(delivery).toMatchObject({ channelId: made.id, channelName: 'Ops', runId: run.id, event: 'run.failed', status: 'delivered', attempts: 1, lastStatusCode: 202, responseBody: 'thanks', lastError: null, requestBody: request.body });
    expect(request.headers['webhook-id']).toBe(delivery.id);
    const listed = (await t.api('GET', `/api/notification-channels/${made.id}`)).body.channel;
    expect(listed.lastDelivery).toMatchObject({ status: 'delivered', statusCode: 202, error: null });
  });

  it('is retried while the receiver fails: 500 twice then 200 is delivered after 3 attempts, one id, fresh signatures', async () => {
    const hook = await receiver((_request, index) => (index < 2 ? { status: 500, body: 'down' } : { status: 200, body: 'up' }));
    const { signingSecret } = await channel({ name: 'Flaky', kind: 'webhook', url: hook.url });
    const run = await runOn(failingInstance);
    const [delivery] = await finishedDeliveries(run.id);
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 3, lastStatusCode: 200, responseBody: 'up' });
    expect(new Set(hook.received.map((request) => request.headers['webhook-id']))).toEqual(new Set([delivery.id]));
    for (const request of hook.received) expect(() => new Webhook(signingSecret!).verify(request.body, request.headers)).not.toThrow();
  });

  it('fails for good after the configured attempts: a system line on the instance, the run unchanged', async () => {
    const hook = await receiver(() => ({ status: 503, body: 'x'.repeat(10_000) }));
    await channel({ name: 'Dead end', kind: 'webhook', url: hook.url });
    const run = await runOn(failingInstance);
    const [delivery] = await finishedDeliveries(run.id);
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, lastStatusCode: 503, lastError: 'The receiver answered 503 Service Unavailable.' });
    expect(delivery.responseBody).toHaveLength(4096);
    expect(hook.received).toHaveLength(3);
    expect((await t.api('GET', `/api/runs/${run.id}`)).body.run).toEqual(run);
    const { events } = (await t.api('GET', `/api/instances/${failingInstance}/activity?limit=50`)).body as { events: { kind: string; displayText: string; runId: string }[] };
    expect(events).toContainEqual(expect.objectContaining({ kind: 'system', runId: run.id, displayText: 'Notification to Dead end failed after 3 attempts: The receiver answered 503 Service Unavailable.' }));
    expect((await t.api('GET', '/api/notification-channels')).body.channels[0].lastDelivery).toMatchObject({ status: 'failed', statusCode: 503 });
  });
});

describe('which runs a channel tells of', () => {
  it('failures only by default; successes or all on request; sources limit; disabled sends nothing', async () => {
    const hook = await receiver();
    const automation = (await t.api('POST', '/api/automations', { name: 'Nightly', prompt: 'p', cronExpression: '0 3 * * *', instanceId: failingInstance })).body.automation;
    const failures = (await channel({ name: 'failures', kind: 'webhook', url: `${hook.url}/failures` })).channel.id;
    const successes = (await channel({ name: 'successes', kind: 'webhook', url: `${hook.url}/successes`, on: 'successes' })).channel.id;
    const ofAutomation = (await channel({ name: 'automation', kind: 'webhook', url: `${hook.url}/automation`, on: 'all', sources: [{ type: 'automation', id: automation.id }] })).channel.id;
    const ofInstance = (await channel({ name: 'instance', kind: 'webhook', url: `${hook.url}/instance`, on: 'all', sources: [{ type: 'instance', id: passingInstance }] })).channel.id;
    await channel({ name: 'off', kind: 'webhook', url: `${hook.url}/off`, on: 'all', enabled: false });

    const succeeded = await runOn(passingInstance);
    const failed = await runOn(failingInstance);
    const fromAutomation = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id as string);
    expect([succeeded.status, failed.status, fromAutomation.status]).toEqual(['succeeded', 'failed', 'failed']);

    const channelsOf = async (run: Run, count: number) => (await finishedDeliveries(run.id, count)).map((delivery) => delivery.channelId).sort();
    expect(await channelsOf(succeeded, 2)).toEqual([successes, ofInstance].sort());
    expect(await channelsOf(failed, 1)).toEqual([failures]);
    expect(await channelsOf(fromAutomation, 2)).toEqual([failures, ofAutomation].sort());
    const [automationRequest] = hook.received.filter((request) => request.path === '/automation');
    expect(JSON.parse(automationRequest.body).data.source).toEqual({ type: 'automation', id: automation.id, name: 'Nightly' });
    expect(hook.received.map((request) => request.path).sort()).toEqual(['/automation', '/failures', '/failures', '/instance', '/successes']);
  });
});

describe('restart', () => {
  it('an attempt cut short by close stays pending and is sent after the next start', async () => {
    const dataDir = tempDir();
    let hang = true;
    const hook = await receiver(() => (hang ? null : { status: 200, body: 'resumed' }));
    const first = await startTestCore({ clock: systemClock, dataDir, notificationTiming: timing });
    const instanceId = (await first.api('POST', '/api/instances', { name: 'Breaks', agent: failing })).body.instance.id as string;
    await first.api('POST', '/api/notification-channels', { name: 'Later', kind: 'webhook', url: hook.url });
    const run = await settled(first, (await first.api('POST', '/api/runs', { instanceId, prompt: 'go' })).body.run.id as string);
    await hook.waitFor(1);
    await first.core.close();
    expect(first.core.store.db.open).toBe(false);

    hang = false;
    const second = await startTestCore({ clock: systemClock, dataDir, notificationTiming: timing });
    try {
      await hook.waitFor(2);
      const deliveries = await waitFor(async () => (await second.api('GET', `/api/runs/${run.id}/notifications`)).body.deliveries as NotificationDelivery[], { what: 'the resumed delivery to be delivered', timeoutMs: 10_000, until: (all) => all[0]?.status === 'delivered' });
      expect(deliveries).toMatchObject([{ status: 'delivered', attempts: 1, responseBody: 'resumed' }]);
      expect(hook.received[0].headers['webhook-id']).toBe(hook.received[1].headers['webhook-id']);
    } finally {
      await second.close();
    }
  });
});
