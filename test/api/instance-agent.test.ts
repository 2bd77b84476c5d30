// PATCH /api/instances/{id} with `agent`: every instance's agent, the default one's included, can be
// changed; a change is probed again (provisioning, then running or error); a stopped instance stays
// stopped; a run already running finishes on its agent and the next one uses the new agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Instance } from '../../src/shared/contract';
import { type TestCore, sandboxSuffix, sandboxedTag, startTestCore } from '../support/core';
import { settled as runSettled } from '../support/runs';

const sandboxed = await sandboxSuffix();

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

const cat = { provider: 'command', preset: 'custom', command: 'cat' } as const;
const settled = async (id: string) => {
  await t.core.services.instances.idle();
  return (await t.api('GET', `/api/instances/${id}`)).body.instance as Instance;
};
const linesOf = (id: string) => t.core.store.db.prepare<[string], { display_text: string }>('SELECT display_text FROM activity WHERE instance_id = ? AND run_id IS NULL ORDER BY line').all(id).map((row) => row.display_text);
const patch = (id: string, body: object) => t.api('PATCH', `/api/instances/${id}`, body);
const replyOf = async (runId: string) => (await t.api('GET', `/api/runs/${runId}/messages`)).body.messages.filter((m: { role: string }) => m.role === 'assistant').map((m: { content: string }) => m.content);

describe('changing an agent', () => {
  it('the default instance takes a new agent: probed again, then it answers', async () => {
    const steward = ((await t.api('GET', '/api/instances')).body.instances as Instance[]).find((each) => each.isDefault)!;
    expect(steward.agent).toEqual({ provider: 'command', preset: 'claude-code' });
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "you said: $(cat)"'] };
    const changed = await patch(steward.id, { agent });
    expect(changed.status).toBe(200);
    expect(changed.body.instance).toMatchObject({ id: steward.id, isDefault: true, agent, status: 'provisioning' });
    expect(await settled(steward.id)).toMatchObject({ status: 'running', imageTag: sandboxedTag('custom:sh'), statusReason: null });
    expect(linesOf(steward.id).slice(-2)).toEqual([`Agent changed to the command sh -c echo "you said: $(cat)"`, `Ready: custom:sh${sandboxed}`]);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: steward.id, prompt: 'hello' })).body;
    expect((await runSettled(t, run.id)).status).toBe('succeeded');
    expect(await replyOf(run.id)).toEqual(['you said: hello']);
  });

  it('the same agent again, keys in another order, is no change: no probe, no line', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Same', agent: { provider: 'openai', model: 'm', baseUrl: 'http://127.0.0.1:9/v1' } })).body;
    await settled(instance.id);
    const before = linesOf(instance.id);
    const again = await patch(instance.id, { agent: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', provider: 'openai' } });
    expect(again.body.instance.status).toBe('error');
    expect(linesOf(instance.id)).toEqual(before);
  });

  it('an agent that cannot run is an error with the reason; a fixed one runs again', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Breakable', agent: cat })).body;
    expect((await settled(instance.id)).status).toBe('running');
    await patch(instance.id, { agent: { provider: 'command', preset: 'custom', command: 'no-such-agent-here' } });
    expect(await settled(instance.id)).toMatchObject({ status: 'error', statusReason: expect.stringContaining('no-such-agent-here was not found on PATH') });
    await patch(instance.id, { agent: cat });
    expect(await settled(instance.id)).toMatchObject({ status: 'running', imageTag: sandboxedTag('custom:cat') });
  });

  it('a stopped instance keeps the new agent and stays stopped until started', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Sleepy', agent: cat })).body;
    await settled(instance.id);
    await t.api('POST', `/api/instances/${instance.id}/stop`);
    const changed = await patch(instance.id, { agent: { provider: 'command', preset: 'custom', command: 'true' } });
    expect(changed.body.instance).toMatchObject({ status: 'stopped', agent: { command: 'true' } });
    expect((await settled(instance.id)).status).toBe('stopped');
    await t.api('POST', `/api/instances/${instance.id}/start`);
    expect(await settled(instance.id)).toMatchObject({ status: 'running', imageTag: sandboxedTag('custom:true') });
  });

  it('while a run runs: allowed; that run finishes on its agent, the next one uses the new agent', async () => {
    const old = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; sleep 1; echo old agent'] };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Switcher', agent: old })).body;
    await settled(instance.id);
    const { run: first } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'one' })).body;
    await expect.poll(async () => (await t.api('GET', `/api/runs/${first.id}`)).body.run.status).toBe('running');
    const changed = await patch(instance.id, { agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; echo new agent'] } });
    expect(changed.status).toBe(200);
    const { run: second } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'two' })).body;
    expect((await runSettled(t, first.id)).status).toBe('succeeded');
    expect((await runSettled(t, second.id)).status).toBe('succeeded');
    expect(await replyOf(first.id)).toEqual(['old agent']);
    expect(await replyOf(second.id)).toEqual(['new agent']);
  });

  it('refuses an invalid agent with the field, and changes nothing', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Strict', agent: cat })).body;
    const ready = await settled(instance.id);
    const attempts: [object, string, string][] = [
      [{ agent: { provider: 'command', preset: 'custom' } }, 'invalid_field', 'agent.command'],
      [{ agent: { provider: 'command', preset: 'custom', command: 'sh', args: 'not a list' } }, 'invalid_field', 'agent.args'],
      [{ agent: { provider: 'openai' } }, 'missing_field', 'agent.model'],
      [{ agent: { provider: 'command', preset: 'cat' } }, 'invalid_field', 'agent.preset'],
      [{ agent: { ...cat, shell: true } }, 'unknown_field', 'agent.shell'],
    ];
    for (const [body, code, field] of attempts) {
      const response = await patch(instance.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error).toMatchObject({ code, field });
    }
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance).toEqual(ready);
  });
});
