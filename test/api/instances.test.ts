// Instances (seed op 3 and the operations around it).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Instance } from '../../src/shared/contract';
import { type TestCore, sandboxSuffix, sandboxedTag, startTestCore, tempDir } from '../support/core';
import { startOpenAiServer } from '../support/openai-server';
import { settled as runEnded } from '../support/runs';
import { waitFor } from '../support/wait';

const sandboxed = await sandboxSuffix();

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
    expect(Instance.parse(defaults[0])).toMatchObject({ name: 'Steward', fqdn: 'steward.localhost', agent: { provider: 'command', preset: 'claude-code' } });
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

  it('PATCH renames and changes the avatar (the agent: instance-agent.test.ts)', async () => {
    const instance = await create({ name: 'Patchable' });
    const renamed = await t.api('PATCH', `/api/instances/${instance.id}`, { name: 'Patched' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.instance).toMatchObject({ id: instance.id, name: 'Patched', fqdn: instance.fqdn, agent: instance.agent });
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
    await create({ name: 'Guarded' });
    await t.core.services.instances.idle();
    const instance = (await t.api('GET', '/api/instances')).body.instances.find((each: Instance) => each.name === 'Guarded') as Instance;
    const attempts: [object, string, string][] = [
      [{ status: 'running' }, 'unknown_field', 'status'],
      [{ name: 'x', imageTag: 'evil:latest' }, 'unknown_field', 'imageTag'],
      [{ fqdn: 'evil.localhost' }, 'unknown_field', 'fqdn'],
      [{ agent: { provider: 'command', preset: 'custom' } }, 'invalid_field', 'agent.command'],
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

describe('instance lifecycle', () => {
  const settled = async (id: string) => {
    await t.core.services.instances.idle();
    return (await t.api('GET', `/api/instances/${id}`)).body.instance as Instance;
  };
  const linesOf = (id: string) => t.core.store.db.prepare<[string], { display_text: string }>('SELECT display_text FROM activity WHERE instance_id = ? ORDER BY line').all(id).map((row) => row.display_text);

  it('provisions a custom agent found on PATH: workspace made, running, imageTag custom:<command>', async () => {
    const instance = await create({ name: 'Catty', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(instance.status).toBe('provisioning');
    const ready = await settled(instance.id);
    expect(ready).toMatchObject({ status: 'running', statusReason: null, imageTag: sandboxedTag('custom:cat') });
    expect(fs.statSync(ready.workspaceDir).isDirectory()).toBe(true);
    expect(linesOf(instance.id)).toEqual([`Ready: custom:cat${sandboxed}`]);
    // Steward probes again at every start; finding the same adds no line.
    await t.core.services.instances.provisionAll();
    expect(linesOf(instance.id)).toEqual([`Ready: custom:cat${sandboxed}`]);
    expect((await settled(instance.id)).status).toBe('running');
  });

  it('probes a preset CLI for its version; a missing command is an error with a reason', async () => {
    const bin = tempDir('steward-probe-');
    fs.writeFileSync(path.join(bin, 'claude'), '#!/bin/sh\n[ "$1" = "--version" ] && echo "2.1.3 (Claude Code)"\n', { mode: 0o755 });
    // IS_SANDBOX: Claude Code refuses to run as root without it, and tests may run as root (probe.test.ts).
    const found = await create({ name: 'Claude here', agent: { provider: 'command', preset: 'claude-code', env: { PATH: bin, IS_SANDBOX: '1' } } });
    expect(await settled(found.id)).toMatchObject({ status: 'running', imageTag: sandboxedTag('claude-code@2.1.3') });

    const missing = await create({ name: 'Claude gone', agent: { provider: 'command', preset: 'claude-code', env: { PATH: '/nonexistent' } } });
    const broken = await settled(missing.id);
    expect(broken).toMatchObject({ status: 'error', imageTag: '', statusReason: "claude was not found on PATH; install it or set the agent's command to its full path." });
    expect(linesOf(missing.id)).toEqual([`Not ready: ${broken.statusReason}`]);
  });

  it('probes an OpenAI-compatible endpoint: reachable and the model listed', async () => {
    const server = await startOpenAiServer();
    try {
      const ok = await create({ name: 'Local llm', agent: { provider: 'openai', baseUrl: server.baseUrl, model: 'qwen3:8b' } });
      expect(await settled(ok.id)).toMatchObject({ status: 'running', imageTag: sandboxedTag('openai:qwen3:8b') });
      const wrongModel = await create({ name: 'Wrong model', agent: { provider: 'openai', baseUrl: server.baseUrl, model: 'llama9:1t' } });
      expect((await settled(wrongModel.id)).statusReason).toBe(`The model llama9:1t is not available at ${server.baseUrl}; it has qwen3:8b.`);
      const nowhere = await create({ name: 'No server', agent: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' } });
      expect(await settled(nowhere.id)).toMatchObject({ status: 'error', statusReason: expect.stringContaining('Could not reach the model server at http://127.0.0.1:9/v1') });
    } finally {
      await server.close();
    }
  });

  it('stop keeps runs queued until start; restart probes again; delete waits for a running run unless forced', async () => {
    const instance = await create({ name: 'Switchable', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    await settled(instance.id);
    const stopped = await t.api('POST', `/api/instances/${instance.id}/stop`);
    expect(stopped.status).toBe(200);
    expect(stopped.body.instance).toMatchObject({ status: 'stopped' });
    // The core's clock stands still in this file, but the runner is real: a stopped instance's run waits.
    const witness = await create({ name: 'Witness', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    await settled(witness.id);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'wait for me' })).body;
    // A run queued after it, on a running instance, has ended: the runner has been past this one and left it.
    const { run: after } = (await t.api('POST', '/api/runs', { instanceId: witness.id, prompt: 'go ahead' })).body;
    expect(await runEnded(t, after.id)).toMatchObject({ status: 'succeeded' });
    expect((await t.api('GET', `/api/runs/${run.id}`)).body.run.status).toBe('queued');

    const started = await t.api('POST', `/api/instances/${instance.id}/start`);
    expect(started.status).toBe(202);
    expect(started.body.instance.status).toBe('provisioning');
    expect(await settled(instance.id)).toMatchObject({ status: 'running' });
    expect(await runEnded(t, run.id)).toMatchObject({ status: 'succeeded' });

    const restarted = await t.api('POST', `/api/instances/${instance.id}/restart`);
    expect(restarted.body.instance.status).toBe('provisioning');
    expect(await settled(instance.id)).toMatchObject({ status: 'running' });
    expect(linesOf(instance.id).filter((line) => /^(Ready|Stopped)/.test(line))).toEqual([`Ready: custom:cat${sandboxed}`, 'Stopped: queued runs wait until it starts again', `Ready: custom:cat${sandboxed}`, 'Stopped: queued runs wait until it starts again', `Ready: custom:cat${sandboxed}`]);

    const sleeper = await create({ name: 'Sleeper', agent: { provider: 'command', preset: 'custom', command: 'sleep', args: ['30'] } });
    await settled(sleeper.id);
    const { run: long } = (await t.api('POST', '/api/runs', { instanceId: sleeper.id, prompt: 'zzz' })).body;
    await waitFor(async () => (await t.api('GET', `/api/runs/${long.id}`)).body.run.status === 'running', { what: 'the sleeper\'s run to start' });
    const refused = await t.api('DELETE', `/api/instances/${sleeper.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('instance_busy');
    expect((await t.api('DELETE', `/api/instances/${sleeper.id}?force=true`)).status).toBe(204);
    expect((await t.api('GET', `/api/instances/${sleeper.id}`)).status).toBe(404);
    expect((await t.api('POST', `/api/instances/${sleeper.id}/start`)).status).toBe(404);
  });
});
