// Notification channels over the API: create (a webhook channel's secret shown once), read (Slack
// and Discord URLs shortened), update semantics, validation errors with their field, admin only,
// the test endpoint (a dead receiver is a failed delivery, never a 500), and what ntfy, Slack and
// Discord receive about a failed run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { NotificationChannel, NotificationDelivery } from '../../src/shared/contract';
import { formatDuration } from '../../src/shared/format';
import { type TestCore, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { settled } from '../support/runs';

let t: TestCore;
let hook: Receiver;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, notificationTiming: { retryDelaysMs: [20], attemptTimeoutMs: 2_000 } });
  hook = await startReceiver(() => ({ status: 200, body: 'ok' }));
});
afterAll(async () => {
  await hook.close();
  await t.close();
});

const create = (body: object) => t.api('POST', '/api/notification-channels', body);
const slackUrl = () => `${hook.url}/services/T000/B000/XXXXSECRET`;

describe('channels', () => {
  it('create shows a webhook channel\'s signing secret once; reads never show it', async () => {
    const created = await create({ name: 'Ops', kind: 'webhook', url: `${hook.url}/ops` });
    expect(created.status).toBe(201);
    const { channel, signingSecret } = created.body as { channel: NotificationChannel; signingSecret: string };
    expect(channel).toMatchObject({ name: 'Ops', kind: 'webhook', url: `${hook.url}/ops`, enabled: true, on: 'failures', sources: [], tokenRef: null, lastDelivery: null });
    expect(channel.id).toMatch(/^chn_/);
    expect(signingSecret).toMatch(/^whsec_/);
    const read = await t.api('GET', `/api/notification-channels/${channel.id}`);
    const listed = await t.api('GET', '/api/notification-channels');
    expect(read.body).toEqual({ channel });
    expect(listed.text).not.toContain(signingSecret.slice(6));
    expect(JSON.stringify(t.core.store.db.prepare('SELECT * FROM notification_channels').all())).not.toContain(signingSecret.slice(6));

    const renamed = await t.api('PUT', `/api/notification-channels/${channel.id}`, { name: 'Ops team' });
    expect(renamed.body).toMatchObject({ channel: { name: 'Ops team', url: `${hook.url}/ops`, on: 'failures' }, signingSecret: null });
    const regenerated = await t.api('PUT', `/api/notification-channels/${channel.id}`, { regenerateSecret: true });
    expect(regenerated.body.signingSecret).toMatch(/^whsec_/);
    expect(regenerated.body.signingSecret).not.toBe(signingSecret);
    expect((await t.api('DELETE', `/api/notification-channels/${channel.id}`)).status).toBe(204);
    expect((await t.api('GET', `/api/notification-channels/${channel.id}`)).status).toBe(404);
  });

  it('keeps a Slack URL sealed and shows it shortened', async () => {
    const { channel, signingSecret } = (await create({ name: 'Slack', kind: 'slack', url: slackUrl() })).body;
    expect(signingSecret).toBeNull();
    expect(channel.url).toBe(`${hook.url}/services/…`);
    expect((await t.api('GET', `/api/notification-channels/${channel.id}`)).body.channel.url).toBe(`${hook.url}/services/…`);
    expect(JSON.stringify(t.core.store.db.prepare('SELECT * FROM notification_channels').all())).not.toContain('XXXXSECRET');
    await t.api('DELETE', `/api/notification-channels/${channel.id}`);
  });

  it('refuses bad input with 400 and the field, changing nothing', async () => {
    const automation = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily' })).body.automation;
    const cases: [object, string, string][] = [
      [{ name: 'x', kind: 'webhook', url: 'ftp://example.com/x' }, 'invalid_url', 'url'],
      [{ name: 'x', kind: 'webhook', url: 'not a url' }, 'invalid_url', 'url'],
      [{ name: 'x', kind: 'email', url: hook.url }, 'invalid_field', 'kind'],
      [{ name: 'x', kind: 'webhook', url: hook.url, sources: [{ type: 'automation', id: automation.id }, { type: 'webhook', id: 'whk_nope' }] }, 'invalid_field', 'sources.1.id'],
      [{ name: 'x', kind: 'webhook', url: hook.url, sources: [{ type: 'instance', id: 'ins_nope' }] }, 'invalid_field', 'sources.0.id'],
      [{ name: 'x', kind: 'webhook', url: hook.url, secret: 'mine' }, 'unknown_field', 'secret'],
      [{ name: 'x', kind: 'ntfy', url: hook.url, tokenRef: 'NOT_STORED' }, 'invalid_field', 'tokenRef'],
      [{ name: 'x', kind: 'slack', url: hook.url, tokenRef: 'X' }, 'invalid_field', 'tokenRef'],
      [{ kind: 'webhook', url: hook.url }, 'missing_field', 'name'],
    ];
    for (const [body, code, field] of cases) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toMatchObject({ code, field });
    }
    expect((await t.api('GET', '/api/notification-channels')).body.channels).toEqual([]);

    const { channel } = (await create({ name: 'ok', kind: 'ntfy', url: hook.url })).body;
    for (const [body, code, field] of [
      [{ kind: 'slack' }, 'unknown_field', 'kind'],
      [{ url: 'javascript:alert(1)' }, 'invalid_url', 'url'],
      [{ regenerateSecret: true }, 'invalid_field', 'regenerateSecret'],
      [{ on: 'sometimes' }, 'invalid_field', 'on'],
    ] as [object, string, string][]) {
      const response = await t.api('PUT', `/api/notification-channels/${channel.id}`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error, JSON.stringify(body)).toMatchObject({ code, field });
    }
    expect((await t.api('GET', `/api/notification-channels/${channel.id}`)).body.channel).toEqual(channel);
    await t.api('DELETE', `/api/notification-channels/${channel.id}`);
  });

  it('are for admin keys only', async () => {
    const { key } = (await t.api('POST', '/api/keys', { name: 'reader', scope: 'read' })).body;
    const response = await t.api('GET', '/api/notification-channels', undefined, { authorization: `Bearer ${key}` });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('forbidden');
  });
});

describe('the test endpoint', () => {
  it('sends once now and answers with the delivery; a dead receiver is a failed delivery, not an error', async () => {
    const ok = (await create({ name: 'Alive', kind: 'discord', url: `${hook.url}/api/webhooks/1/abc` })).body.channel as NotificationChannel;
    const sent = await t.api('POST', `/api/notification-channels/${ok.id}/test`, {});
    expect(sent.status).toBe(200);
    expect(sent.body.delivery).toMatchObject({ channelId: ok.id, runId: null, event: 'test', status: 'delivered', attempts: 1, lastStatusCode: 200, responseBody: 'ok' });

    const dead = await startReceiver();
    const deadUrl = dead.url;
    await dead.close();
    const gone = (await create({ name: 'Gone', kind: 'webhook', url: deadUrl })).body.channel as NotificationChannel;
    const failed = await t.api('POST', `/api/notification-channels/${gone.id}/test`, {});
    expect(failed.status).toBe(200);
    expect(failed.body.delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null, nextAttemptAt: null });
    expect(failed.body.delivery.lastError).toMatch(/ECONNREFUSED/);
    expect((await t.api('GET', `/api/notification-channels/${gone.id}`)).body.channel.lastDelivery).toMatchObject({ status: 'failed', statusCode: null });
    const page = (await t.api('GET', `/api/notification-channels/${gone.id}/deliveries`)).body as { deliveries: NotificationDelivery[]; nextBefore: string | null };
    expect(page).toEqual({ deliveries: [failed.body.delivery], nextBefore: null });
    expect((await t.api('POST', '/api/notification-channels/chn_nope/test', {})).status).toBe(404);
    for (const id of [ok.id, gone.id]) await t.api('DELETE', `/api/notification-channels/${id}`);
  });
});

describe('what ntfy, Slack and Discord receive', () => {
  it('about a failed run: source, instance, status, duration, error and the run link', async () => {
    await t.api('PUT', '/api/secrets/NTFY_TOKEN', { value: 'tk_secret' });
    await t.api('PATCH', '/api/settings', { notifications: { linkBaseUrl: 'https://steward.example.com/' } });
    const instanceId = (await t.api('POST', '/api/instances', { name: 'Builder', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "disk <full> & @everyone" >&2; exit 3'] } })).body.instance.id;
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'CI', promptTemplate: 'CI: {{payload}}', instanceId })).body;
    await create({ name: 'phone', kind: 'ntfy', url: `${hook.url}/steward-alerts`, tokenRef: 'NTFY_TOKEN' });
    await create({ name: 'team', kind: 'slack', url: slackUrl() });
    await create({ name: 'guild', kind: 'discord', url: `${hook.url}/api/webhooks/1/abc` });

    const before = hook.received.length;
    const trigger = await fetch(webhook.triggerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"conclusion":"failure"}' });
    const run = await settled(t, ((await trigger.json()) as { run: { id: string } }).run.id);
    expect(run.status).toBe('failed');
    const received = (await hook.waitFor(before + 3)).slice(before);
    const link = `https://steward.example.com/#/runs/${run.id}`;
    // The event's durationSeconds (tenths of a second), in the run page's words.
    const seconds = formatDuration(Math.round((Date.parse(run.finishedAt!) - Date.parse(run.startedAt!)) / 100) * 100);

    const ntfy = received.find((request) => request.path === '/steward-alerts')!;
    expect(ntfy.headers).toMatchObject({ title: 'Run failed: CI', priority: 'high', tags: 'x', click: link, authorization: 'Bearer tk_secret' });
    expect(ntfy.body).toBe(`webhook CI on Builder · ${seconds}\nError: ${run.error}\n${link}`);

    const slack = received.find((request) => request.path.startsWith('/services/'))!;
    expect(slack.path).toBe('/services/T000/B000/XXXXSECRET');
    const slackText = (JSON.parse(slack.body) as { text: string }).text;
    expect(slackText).toBe(`*Run failed: CI*\nwebhook CI on Builder · ${seconds}\n> ${run.error!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}\n<${link}|Open run>`);
    expect(slackText).toContain('&lt;full&gt; &amp;');

    const discord = received.find((request) => request.path.startsWith('/api/webhooks/'))!;
    expect(JSON.parse(discord.body)).toEqual({ content: `**Run failed: CI**\nwebhook CI on Builder · ${seconds}\n> ${run.error}\n${link}`, allowed_mentions: { parse: [] } });
    expect(run.error).toContain('@everyone');
    await t.api('PATCH', '/api/settings', { notifications: { linkBaseUrl: null } });
  });
});
