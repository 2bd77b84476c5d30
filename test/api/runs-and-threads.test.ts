// Runs and threads as the trigger and "run now" leave them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Run, Thread } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());

describe('runs', () => {
  it('lists newest first, filtered by source, source id and status', async () => {
    const hook = (await t.api('POST', '/api/webhooks', { name: 'h', promptTemplate: '{{payload}}' })).body.webhook;
    const automation = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily' })).body.automation;
    const first = await request(`${t.url}/api/webhooks/trigger/${hook.token}`, { method: 'POST', body: 'one' });
    const second = await request(`${t.url}/api/webhooks/trigger/${hook.token}`, { method: 'POST', body: 'two' });
    await t.api('POST', `/api/automations/${automation.id}/run`);

    const byHook = (await t.api('GET', `/api/runs?sourceId=${hook.id}`)).body.runs as Run[];
    expect(byHook.map((r) => r.id)).toEqual([second.body.run.id, first.body.run.id]);
    for (const run of byHook) Run.parse(run);
    expect(byHook.map((r) => r.prompt)).toEqual(['two', 'one']);

    const automationRuns = (await t.api('GET', '/api/runs?source=automation')).body.runs as Run[];
    expect(automationRuns.every((r) => r.source === 'automation')).toBe(true);
    expect((await t.api('GET', '/api/runs?status=succeeded')).body.runs).toEqual([]);
    expect((await t.api('GET', '/api/runs?limit=1')).body.runs).toHaveLength(1);
  });

  it('pages with before=<runId> and filters by instance', async () => {
    const hook = (await t.api('POST', '/api/webhooks', { name: 'paged', promptTemplate: '{{payload}}' })).body.webhook;
    for (const body of ['a', 'b', 'c']) await request(`${t.url}/api/webhooks/trigger/${hook.token}`, { method: 'POST', body });
    const all = (await t.api('GET', `/api/runs?sourceId=${hook.id}`)).body.runs as Run[];
    const first = (await t.api('GET', `/api/runs?sourceId=${hook.id}&limit=2`)).body.runs as Run[];
    const rest = (await t.api('GET', `/api/runs?sourceId=${hook.id}&limit=2&before=${first.at(-1)!.id}`)).body.runs as Run[];
    expect([...first, ...rest].map((r) => r.id)).toEqual(all.map((r) => r.id));
    expect(rest).toHaveLength(1);
    const onInstance = (await t.api('GET', `/api/runs?instanceId=${hook.instanceId}`)).body.runs as Run[];
    expect(onInstance.length).toBeGreaterThanOrEqual(3);
    expect(onInstance.every((r) => r.instanceId === hook.instanceId)).toBe(true);
    expect((await t.api('GET', '/api/runs?instanceId=ins_nope')).body.runs).toEqual([]);
  });

  it('answers 404 for an unknown run or thread', async () => {
    expect((await t.api('GET', '/api/runs/run_nope')).status).toBe(404);
    expect((await t.api('GET', '/api/threads/thr_nope')).status).toBe(404);
  });

  it('serves the thread an automation owns', async () => {
    const automation = (await t.api('POST', '/api/automations', { name: 'a', prompt: 'p', cronExpression: '@daily' })).body.automation;
    const response = await t.api('GET', `/api/threads/${automation.threadId}`);
    expect(response.status).toBe(200);
    expect(Thread.parse(response.body.thread)).toMatchObject({ id: automation.threadId, ownerType: 'automation', ownerId: automation.id, hasMore: false });
  });
});
