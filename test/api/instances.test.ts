// Instances (seed op 3 and the operations around it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Instance } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

const create = async (body: object) => (await t.api('POST', '/api/instances', body)).body.instance as Instance;

describe('instances', () => {
  it('has a default instance from the first start', async () => {
    const { instances } = (await t.api('GET', '/api/instances')).body as { instances: Instance[] };
    const defaults = instances.filter((i) => i.isDefault);
    expect(defaults).toHaveLength(1);
    expect(Instance.parse(defaults[0])).toMatchObject({ name: 'Steward', fqdn: 'steward.localhost', status: 'provisioning' });
  });

  it('creates an instance: provisioning, a slug fqdn, a generated avatar, a workspace in the data folder', async () => {
    const response = await t.api('POST', '/api/instances', { name: 'Home Server', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(response.status).toBe(201);
    const instance = Instance.parse(response.body.instance);
    expect(instance).toMatchObject({ name: 'Home Server', status: 'provisioning', statusReason: null, imageTag: '', fqdn: 'home-server.localhost', isDefault: false });
    expect(instance.avatarUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(instance.avatarUrl.split(',')[1], 'base64').toString()).toContain('>HS<');
    expect(instance.workspaceDir.startsWith(t.dataDir)).toBe(true);
    expect(instance.createdAt).toBe(instance.updatedAt);
  });

  it('keeps fqdns unique when names collide', async () => {
    const a = await create({ name: 'Twin' });
    const b = await create({ name: 'twin!' });
    expect(a.fqdn).toBe('twin.localhost');
    expect(b.fqdn).toBe('twin-2.localhost');
    expect((await create({ name: '日本' })).fqdn).toBe('agent.localhost');
  });

  it('validates the agent configuration', async () => {
    const noCommand = await t.api('POST', '/api/instances', { name: 'x', agent: { provider: 'command', preset: 'custom' } });
    expect(noCommand.status).toBe(400);
    expect(noCommand.body.error).toMatchObject({ code: 'invalid_field', field: 'agent.command' });
    const badProvider = await t.api('POST', '/api/instances', { name: 'x', agent: { provider: 'skynet' } });
    expect(badProvider.status).toBe(400);
    const extra = await t.api('POST', '/api/instances', { name: 'x', agent: { provider: 'openai', model: 'qwen3:8b', temperature: 2 } });
    expect(extra.body.error).toMatchObject({ code: 'unknown_field', field: 'agent.temperature' });
    const relative = await t.api('POST', '/api/instances', { name: 'x', workspaceDir: 'relative/dir' });
    expect(relative.body.error).toMatchObject({ code: 'invalid_field', field: 'workspaceDir' });
    expect((await create({ name: 'Abs', workspaceDir: '/srv/agent' })).workspaceDir).toBe('/srv/agent');
    const openai = await create({ name: 'Local', agent: { provider: 'openai', model: 'qwen3:8b' } });
    expect(openai.agent).toEqual({ provider: 'openai', model: 'qwen3:8b', baseUrl: 'http://127.0.0.1:11434/v1' });
  });

  it('PATCH renames and changes the avatar, and nothing else', async () => {
    const instance = await create({ name: 'Patchable' });
    const renamed = await t.api('PATCH', `/api/instances/${instance.id}`, { name: 'Patched' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.instance).toMatchObject({ id: instance.id, name: 'Patched', fqdn: instance.fqdn, status: 'provisioning' });
    // The generated avatar follows the new name.
    expect(Buffer.from(renamed.body.instance.avatarUrl.split(',')[1], 'base64').toString()).toContain('>P<');
    expect(renamed.body.instance.updatedAt >= instance.updatedAt).toBe(true);

    const avatarUrl = 'https://example.com/bot.png';
    const withAvatar = await t.api('PATCH', `/api/instances/${instance.id}`, { avatarUrl });
    expect(withAvatar.body.instance).toMatchObject({ name: 'Patched', avatarUrl });
    const renamedAgain = await t.api('PATCH', `/api/instances/${instance.id}`, { name: 'Again' });
    expect(renamedAgain.body.instance.avatarUrl).toBe(avatarUrl);
    const reset = await t.api('PATCH', `/api/instances/${instance.id}`, { avatarUrl: '' });
    expect(reset.body.instance.avatarUrl).toMatch(/^data:image\/svg\+xml/);
  });

  it('PATCH rejects read-only and unknown fields, bad avatars, and changes nothing', async () => {
    const instance = await create({ name: 'Guarded' });
    const attempts: [object, string, string][] = [
      [{ status: 'running' }, 'unknown_field', 'status'],
      [{ name: 'x', imageTag: 'evil:latest' }, 'unknown_field', 'imageTag'],
      [{ fqdn: 'evil.localhost' }, 'unknown_field', 'fqdn'],
      [{ agent: { provider: 'command', preset: 'codex' } }, 'unknown_field', 'agent'],
      [{ name: null }, 'invalid_field', 'name'],
      [{ name: '' }, 'invalid_field', 'name'],
      [{ avatarUrl: 'javascript:alert(1)' }, 'invalid_field', 'avatarUrl'],
      [{ avatarUrl: 'http://example.com/a.png' }, 'invalid_field', 'avatarUrl'],
      [{ avatarUrl: `data:image/png;base64,${'A'.repeat(100_001)}` }, 'invalid_field', 'avatarUrl'],
    ];
    for (const [body, code, field] of attempts) {
      const response = await t.api('PATCH', `/api/instances/${instance.id}`, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.body.error).toMatchObject({ code, field });
    }
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance).toEqual(instance);
  });

  it('accepts a data:image avatar', async () => {
    const instance = await create({ name: 'Pixel' });
    const avatarUrl = 'data:image/png;base64,iVBORw0KGgo=';
    expect((await t.api('PATCH', `/api/instances/${instance.id}`, { avatarUrl })).body.instance.avatarUrl).toBe(avatarUrl);
  });

  it('deletes an unused instance, refuses the default one and one still in use', async () => {
    const unused = await create({ name: 'Disposable' });
    expect((await t.api('DELETE', `/api/instances/${unused.id}`)).status).toBe(204);
    expect((await t.api('GET', `/api/instances/${unused.id}`)).status).toBe(404);

    const used = await create({ name: 'Busy' });
    await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily', instanceId: used.id });
    const refused = await t.api('DELETE', `/api/instances/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('instance_in_use');

    const defaultId = ((await t.api('GET', '/api/instances')).body.instances as Instance[]).find((i) => i.isDefault)!.id;
    const defaultRefused = await t.api('DELETE', `/api/instances/${defaultId}`);
    expect(defaultRefused.status).toBe(409);
    expect(defaultRefused.body.error.code).toBe('default_instance');
  });

  it('answers 404 for unknown ids', async () => {
    expect((await t.api('GET', '/api/instances/ins_nope')).status).toBe(404);
    expect((await t.api('PATCH', '/api/instances/ins_nope', { name: 'x' })).status).toBe(404);
    expect((await t.api('DELETE', '/api/instances/ins_nope')).status).toBe(404);
  });
});
