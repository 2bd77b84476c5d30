// Approvals and Steward's notices leaving the machine, against receivers on loopback: an approval
// reaches ntfy with Allow and Deny buttons that POST to its links (and the Allow one, POSTed as
// ntfy would, decides it) and a button that opens the run; Slack, Discord and a signed webhook
// (verified with the `standardwebhooks` library) carry both links; channels that want only
// successes, or other sources, hear nothing; a notice reaches channels that tell of failures.
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { postNotice } from '../../src/main/core/services/notices';
import type { Approval, NotificationDelivery } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { waitFor } from '../support/wait';

const echo = { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] };
const noSandbox = { mode: 'off', network: [], readDeny: [], writeAllow: [] };

let t: TestCore;
let instanceId: string;
let otherInstanceId: string;
let webhook: { id: string; triggerUrl: string };
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, notificationTiming: { retryDelaysMs: [20], attemptTimeoutMs: 2_000 } });
  instanceId = (await t.api('POST', '/api/instances', { name: 'Deployer', agent: echo, sandbox: noSandbox })).body.instance.id;
  otherInstanceId = (await t.api('POST', '/api/instances', { name: 'Other', agent: echo, sandbox: noSandbox })).body.instance.id;
  await t.core.services.instances.idle();
  webhook = (await t.api('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId, approval: { mode: 'before-run', timeoutSeconds: 3600 } })).body.webhook;
});
afterAll(() => t.close());
afterEach(async () => {
  for (const channel of (await t.api('GET', '/api/notification-channels')).body.channels) await t.api('DELETE', `/api/notification-channels/${channel.id}`);
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function receiver(): Promise<Receiver> {
  const started = await startReceiver(() => ({ status: 200, body: 'ok' }));
  receivers.push(started);
  return started;
}

async function channel(body: object): Promise<{ channel: { id: string }; signingSecret: string | null }> {
  const response = await t.api('POST', '/api/notification-channels', body);
  expect(response.status, response.text).toBe(201);
  return response.body;
}

/** Fires the gated webhook: a run that waits, and its pending approval with its links. */
async function ask(payload: string): Promise<{ runId: string; approval: Approval & { links: { allow: string; deny: string } } }> {
  const fired = await request(webhook.triggerUrl, { method: 'POST', body: payload, headers: { 'content-type': 'text/plain' } });
  expect(fired.status).toBe(202);
  const runId = fired.body.run.id as string;
  const [approval] = (await t.api('GET', `/api/approvals?status=pending&runId=${runId}`)).body.approvals;
  return { runId, approval };
}

function deliveriesOf(runId: string, count: number): Promise<NotificationDelivery[]> {
  const deliveries = async () => ((await t.api('GET', `/api/runs/${runId}/notifications`)).body as { deliveries: NotificationDelivery[] }).deliveries;
  return waitFor(deliveries, { what: `${count} deliveries of ${runId}, sent`, timeoutMs: 10_000, until: (all) => all.length >= count && all.every((delivery) => delivery.status !== 'pending') });
}

/** ntfy's simple action format: `action, label, url, key=value…` separated by `;`. */
const ntfyActions = (header: string) => header.split(';').map((action) => action.split(',').map((part) => part.trim()));

describe('an approval requested', () => {
  it('reaches ntfy with Allow and Deny buttons that POST to its links; the Allow button decides it', async () => {
    const ntfy = await receiver();
    await channel({ name: 'Phone', kind: 'ntfy', url: `${ntfy.url}/steward-asks` });
    const { runId, approval } = await ask('v2');

    const [message] = await ntfy.waitFor(1);
    expect(message.path).toBe('/steward-asks');
    expect(message.headers.title).toBe('Steward asks: Start a run of webhook "Deploy"?');
    expect(message.body).toBe('The webhook Deploy on Deployer asks: Deploy v2\nUnanswered within 1 h, it is cancelled.');
    expect(ntfyActions(message.headers.actions)).toEqual([
      ['http', 'Allow', approval.links.allow, 'method=POST', 'clear=true'],
      ['http', 'Deny', approval.links.deny, 'method=POST', 'clear=true'],
      ['view', 'Open run', `${t.url}/#/runs/${runId}`],
    ]);
    expect(await deliveriesOf(runId, 1)).toMatchObject([{ event: 'approval.requested', status: 'delivered' }]);

    // What the phone does when Allow is tapped: a POST to the button's URL.
    const [, label, url] = ntfyActions(message.headers.actions)[0];
    expect(label).toBe('Allow');
    const tapped = await fetch(url, { method: 'POST' });
    expect(tapped.status).toBe(200);
    expect((await t.api('GET', `/api/approvals/${approval.id}`)).body.approval).toMatchObject({ status: 'allowed', decidedBy: 'link' });
    const again = await fetch(approval.links.deny, { method: 'POST' });
    expect(again.status).toBe(410);
  });

  it('reaches Slack and Discord with both links, and a signed webhook with the approval and its links', async () => {
    const hooks = await receiver();
    await channel({ name: 'Slack', kind: 'slack', url: `${hooks.url}/services/T/B/slack` });
    await channel({ name: 'Discord', kind: 'discord', url: `${hooks.url}/api/webhooks/1/discord` });
    const { signingSecret } = await channel({ name: 'Ops', kind: 'webhook', url: `${hooks.url}/signed`, sources: [{ type: 'webhook', id: webhook.id }] });
    await channel({ name: 'Good news only', kind: 'webhook', url: `${hooks.url}/successes`, on: 'successes' });
    await channel({ name: 'Elsewhere', kind: 'webhook', url: `${hooks.url}/elsewhere`, on: 'all', sources: [{ type: 'instance', id: otherInstanceId }] });
    const { runId, approval } = await ask('v3');

    await deliveriesOf(runId, 3);
    expect(hooks.received.map((each) => each.path).sort()).toEqual(['/api/webhooks/1/discord', '/services/T/B/slack', '/signed']);
    const byPath = (path: string) => hooks.received.find((each) => each.path === path)!;

    const slack = JSON.parse(byPath('/services/T/B/slack').body).text as string;
    expect(slack).toContain(`<${approval.links.allow}|Allow>`);
    expect(slack).toContain(`<${approval.links.deny}|Deny>`);
    const discord = JSON.parse(byPath('/api/webhooks/1/discord').body) as { content: string; allowed_mentions: unknown };
    expect(discord.content).toContain(`Allow: ${approval.links.allow}`);
    expect(discord.content).toContain(`Deny: ${approval.links.deny}`);

    const signed = byPath('/signed');
    const event = new Webhook(signingSecret!).verify(signed.body, signed.headers) as { type: string; data: { approval: Approval; links: Approval['links']; url: string } };
    expect(event.type).toBe('approval.requested');
    expect(event.data.approval).toEqual(approval);
    expect(event.data.links).toEqual(approval.links);
    expect(event.data.url).toBe(`${t.url}/#/runs/${runId}`);

    // The deny link, as a receiver's automation would call it.
    expect((await fetch(event.data.links!.deny, { method: 'POST' })).status).toBe(200);
    expect((await t.api('GET', `/api/runs/${runId}`)).body.run).toMatchObject({ status: 'cancelled', error: 'Not started: denied by link.' });
  });
});

describe("Steward's notices", () => {
  it('reach channels that tell of failures, as events of their own; not those of successes', async () => {
    const hooks = await receiver();
    const { signingSecret } = await channel({ name: 'Ops', kind: 'webhook', url: `${hooks.url}/failures` });
    await channel({ name: 'ntfy', kind: 'ntfy', url: `${hooks.url}/topic`, on: 'all' });
    const good = await channel({ name: 'Good news only', kind: 'webhook', url: `${hooks.url}/successes`, on: 'successes' });
    // A notice as the scheduler's health check writes one.
    postNotice(t.core.store, { kind: 'automation-unhealthy', title: 'Nightly is failing', body: 'Its last 3 runs failed.', instanceId, automationId: 'aut_01J0000000000000000000000' }, new Date());

    await hooks.waitFor(2);
    // A notice's deliveries are queued together, one per channel that wants it, before any is sent:
    // with two received, none queued for the channel of successes means no third will come.
    expect((await t.api('GET', `/api/notification-channels/${good.channel.id}/deliveries`)).body.deliveries).toEqual([]);
    expect(hooks.received.map((each) => each.path).sort()).toEqual(['/failures', '/topic']);
    const signed = hooks.received.find((each) => each.path === '/failures')!;
    expect(new Webhook(signingSecret!).verify(signed.body, signed.headers)).toMatchObject({
      type: 'automation.unhealthy',
      data: { kind: 'automation-unhealthy', title: 'Nightly is failing', body: 'Its last 3 runs failed.', instanceId, automationId: 'aut_01J0000000000000000000000', url: `${t.url}/#/automations` },
    });
    const ntfy = hooks.received.find((each) => each.path === '/topic')!;
    expect(ntfy.headers.title).toBe('Nightly is failing');
    expect(ntfy.body).toContain('Its last 3 runs failed.');
  });
});
