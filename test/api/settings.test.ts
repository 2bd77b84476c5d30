// GET and PATCH /api/settings: defaults, partial changes that persist, clear refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

describe('settings', () => {
  it('starts at the defaults', async () => {
    const response = await t.api('GET', '/api/settings');
    expect(response.status).toBe(200);
    expect(response.body.settings).toEqual(defaultSettings);
  });

  it('changes only what is sent, keeps it across a restart, and new instances get the default agent', async () => {
    const patched = await t.api('PATCH', '/api/settings', { runner: { maxRunning: 4, maxQueued: null }, notifications: { on: 'failures' }, defaultAgent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(patched.status).toBe(200);
    expect(patched.body.settings).toEqual({
      ...defaultSettings,
      runner: { ...defaultSettings.runner, maxRunning: 4, maxQueued: null },
      notifications: { ...defaultSettings.notifications, on: 'failures' },
      defaultAgent: { provider: 'command', preset: 'custom', command: 'cat' },
    });
    const instance = (await t.api('POST', '/api/instances', { name: 'Defaulted' })).body.instance;
    expect(instance.agent).toEqual({ provider: 'command', preset: 'custom', command: 'cat' });

    const dataDir = t.dataDir;
    await t.core.close();
    const again = await startTestCore({ dataDir });
    try {
      expect((await again.api('GET', '/api/settings')).body.settings).toEqual(patched.body.settings);
    } finally {
      await again.core.close();
    }
    t = await startTestCore({ dataDir });
  });

  it('refuses unknown and invalid settings with the field named, and changes nothing', async () => {
    const before = (await t.api('GET', '/api/settings')).body.settings;
    const attempts: [object, string, string][] = [
      [{ runner: { maxRunning: 0 } }, 'invalid_field', 'runner.maxRunning'],
      [{ runner: { turbo: true } }, 'unknown_field', 'runner.turbo'],
      [{ notifications: { on: 'sometimes' } }, 'invalid_field', 'notifications.on'],
      [{ colour: 'blue' }, 'unknown_field', 'colour'],
      [{ defaultAgent: { provider: 'command', preset: 'custom' } }, 'invalid_field', 'defaultAgent.command'],
    ];
    for (const [body, code, field] of attempts) {
      const response = await t.api('PATCH', '/api/settings', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatchObject({ code, field });
    }
    expect((await t.api('GET', '/api/settings')).body.settings).toEqual(before);
  });
});
