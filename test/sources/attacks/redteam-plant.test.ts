// Red team: a run plants an `at` or `every` automation (which it may make) to reach past its
// walls later: on an unsandboxed instance that accepts its prompts, past the run-depth limit, or as
// an event trigger through a switch of kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../support/clock';
import { type TestCore, startTestCore } from '../../support/core';
import { waitFor } from '../../support/wait';

const clock = new ManualClock(new Date());
let t: TestCore;
let own: string;
let open: string;
let runKey: string;
const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };

beforeAll(async () => {
  t = await startTestCore({ clock });
  own = (await t.api('POST', '/api/instances', { name: 'own', agent })).body.instance.id;
  open = (await t.api('POST', '/api/instances', { name: 'open', agent, sandbox: { mode: 'off' }, acceptsPromptsFrom: [own] })).body.instance.id;
  const run = (await t.api('POST', '/api/runs', { instanceId: own, prompt: 'work' })).body.run;
  runKey = t.core.services.apiKeys.createForRun(run);
});
afterAll(() => t.close());

const asRun = (method: string, route: string, body?: unknown) => t.api(method, route, body, { authorization: `Bearer ${runKey}` });

describe('a run planting a schedule', () => {
  it('cannot put an at or every automation (or a webhook) on an unsandboxed instance that accepts its prompts', async () => {
    expect((await t.api('GET', `/api/instances/${own}`)).body.instance.sandbox.mode).toBe('sandbox');
    const answers = [
      await asRun('POST', '/api/automations', { name: 'x', prompt: 'p', instanceId: open, trigger: { every: { minutes: 1 } } }),
      await asRun('POST', '/api/automations', { name: 'x', prompt: 'p', instanceId: open, trigger: { at: '2099-01-01T09:00' } }),
      await asRun('POST', '/api/automations', { name: 'x', prompt: 'p', instanceId: open, cronExpression: '* * * * *' }),
      await asRun('POST', '/api/webhooks', { name: 'x', prompt: 'p', instanceId: open }),
    ];
    const mine = await asRun('POST', '/api/automations', { name: 'mine', prompt: 'p', trigger: { every: { minutes: 1 } } });
    expect(mine.status, mine.text).toBe(201);
    answers.push(await asRun('PUT', `/api/automations/${mine.body.automation.id}`, { instanceId: open }));
    const onOpen = ((await t.api('GET', '/api/automations')).body.automations as { instanceId: string }[]).filter((a) => a.instanceId === open);
    expect(onOpen, answers.map((a) => `${a.status} ${a.text.slice(0, 160)}`).join('\n')).toEqual([]);
  });

  it("an every automation a run made fires its runs below the run that made it (the depth limit sees it), and at maxRunDepth 0 a run makes none", async () => {
    const made = await asRun('POST', '/api/automations', { name: 'planted', prompt: 'p', trigger: { every: { minutes: 1 } } });
    expect(made.status, made.text).toBe(201);
    clock.advance(61_000);
    const runs = await waitFor(async () => (await t.api('GET', `/api/runs?sourceId=${made.body.automation.id}`)).body.runs, { what: 'the planted run', until: (r) => r?.length > 0 });
    expect(runs[0].parentRunId, JSON.stringify(runs[0])).not.toBeNull();
    expect((await t.api('PATCH', '/api/settings', { runner: { maxRunDepth: 0 } })).status).toBeLessThan(300);
    const refused = await asRun('POST', '/api/automations', { name: 'deep', prompt: 'p', trigger: { at: '2099-01-01T09:00' } });
    expect(refused.status, refused.text).toBe(403);
  });
});
