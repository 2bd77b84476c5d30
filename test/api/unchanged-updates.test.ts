// Updates that change nothing change nothing: an empty or identical PATCH/PUT answers 200 with the
// resource as it was, `updatedAt` kept and no change announced (instances, automations, webhooks,
// notification channels, secrets, settings, the scheduler and the tunnel). The clock moves between
// the write and the no-op, so a rewrite would show.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
const clock = new ManualClock('2026-03-02T10:00:00.000Z');
const events: LiveEvent[] = [];
let unsubscribe: () => void;

beforeAll(async () => {
  t = await startTestCore({ clock });
  unsubscribe = t.core.services.live.subscribe((event) => events.push(event));
});
afterAll(async () => {
  unsubscribe();
  await t.close();
});

/** Moves the clock on a few seconds: a write after this has another updatedAt. */
const later = () => clock.advanceTo(new Date(clock.now().getTime() + 5_000));

/** Events about `id` announced by `work` (a marker change after it proves the announcements are through). */
async function announcedFor(id: string, work: () => Promise<void>): Promise<LiveEvent[]> {
  const from = events.length;
  await work();
  const marker = (await t.api('POST', '/api/automations', { name: 'marker', prompt: 'p', cronExpression: '0 9 1 1 *', enabled: false })).body.automation.id as string;
  const seen = events.slice(from);
  expect(seen.some((event) => event.type === 'changed' && event.id === marker)).toBe(true);
  return seen.filter((event) => (event.type === 'changed' && event.id === id) || (event.type === 'instance' && event.instance.id === id));
}

describe('an update that changes nothing', () => {
  it('leaves an instance as it was (PATCH {} and the same name, avatar and agent)', async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'cat' };
    const instance = (await t.api('POST', '/api/instances', { name: 'Echo', agent })).body.instance;
    await t.core.services.instances.idle();
    const before = (await t.api('GET', `/api/instances/${instance.id}`)).body.instance;
    later();
    const announced = await announcedFor(instance.id, async () => {
      for (const body of [{}, { name: 'Echo' }, { name: before.name, avatarUrl: before.avatarUrl, agent }]) {
        const response = await t.api('PATCH', `/api/instances/${instance.id}`, body);
        expect(response.status).toBe(200);
        expect(response.body.instance).toEqual(before);
      }
    });
    expect(announced).toEqual([]);
    // A real change still is one.
    const renamed = await t.api('PATCH', `/api/instances/${instance.id}`, { name: 'Parrot' });
    expect(renamed.body.instance.updatedAt).toBe(clock.now().toISOString());
  });

  it('leaves an automation as it was (PUT {} and the whole body again)', async () => {
    const body = { name: 'Digest', prompt: 'Summarise', cronExpression: '0 9 1 1 *', timezone: 'Europe/Berlin', notify: 'failures', memory: 'continue' };
    const created = (await t.api('POST', '/api/automations', body)).body.automation;
    later();
    const announced = await announcedFor(created.id, async () => {
      for (const again of [{}, body, { ...body, cronExpression: ' 0 9 1 1 * ' }, { enabled: true }]) {
        const response = await t.api('PUT', `/api/automations/${created.id}`, again);
        expect(response.status).toBe(200);
        expect(response.body.automation.updatedAt).toBe(created.updatedAt);
        expect(response.body.automation).toEqual(created);
      }
    });
    expect(announced).toEqual([]);
  });

  it('leaves a webhook as it was, its signature secret given again included', async () => {
    const body = { name: 'CI', promptTemplate: 'CI: {{payload}}', sender: 'github', signature: { secret: 'a-long-secret' }, filter: [{ header: 'x-github-event', equals: 'push' }] };
    const created = (await t.api('POST', '/api/webhooks', body)).body.webhook;
    later();
    const announced = await announcedFor(created.id, async () => {
      for (const again of [{}, { name: 'CI', regenerateToken: false }, { signature: { scheme: 'github', secret: 'a-long-secret' } }, { filter: body.filter, sender: 'github' }]) {
        const response = await t.api('PUT', `/api/webhooks/${created.id}`, again);
        expect(response.status).toBe(200);
        expect(response.body.webhook).toEqual(created);
      }
    });
    expect(announced).toEqual([]);
    const changed = await t.api('PUT', `/api/webhooks/${created.id}`, { signature: { secret: 'another-secret' } });
    expect(changed.body.webhook.updatedAt).not.toBe(created.updatedAt);
  });

  it('leaves a notification channel as it was, its secret Slack URL given again included', async () => {
    const body = { name: 'Team', kind: 'slack', url: 'https://hooks.slack.com/services/T0/B0/SECRET', on: 'all' };
    const created = (await t.api('POST', '/api/notification-channels', body)).body.channel;
    later();
    for (const again of [{}, { url: body.url, on: 'all', name: 'Team' }]) {
      const response = await t.api('PUT', `/api/notification-channels/${created.id}`, again);
      expect(response.status).toBe(200);
      expect(response.body.channel.updatedAt).toBe(created.updatedAt);
    }
  });

  it('leaves a secret, the settings, the scheduler and the tunnel as they were', async () => {
    const secret = (await t.api('PUT', '/api/secrets/TOKEN', { value: 'v1' })).body.secret;
    later();
    expect((await t.api('PUT', '/api/secrets/TOKEN', { value: 'v1' })).body.secret).toEqual(secret);
    expect((await t.api('PUT', '/api/secrets/TOKEN', { value: 'v2' })).body.secret.updatedAt).not.toBe(secret.updatedAt);

    await t.api('PUT', '/api/tunnel', { provider: 'localtunnel', subdomain: 'steward-test' });
    const settingsVersion = t.core.store.settings.version();
    const settings = (await t.api('GET', '/api/settings')).body.settings;
    expect((await t.api('PATCH', '/api/settings', {})).body.settings).toEqual(settings);
    expect((await t.api('PATCH', '/api/settings', { runner: settings.runner, defaultAgent: settings.defaultAgent })).body.settings).toEqual(settings);
    expect((await t.api('PUT', '/api/scheduler', { paused: false })).status).toBe(200);
    expect((await t.api('PUT', '/api/tunnel', { provider: 'localtunnel', subdomain: 'steward-test' })).status).toBe(200);
    expect(t.core.store.settings.version()).toBe(settingsVersion);
  });
});
