// @vitest-environment jsdom
// The store's slices against a real core: actions call the client, errors come back with their
// field, live events update what the UI shows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, type StewardClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

describe('the store', () => {
  it('loads, creates and updates automations; a refusal is an ApiError naming its field', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadAutomations();
    expect(store.getState().automations).toEqual([]);
    const created = await store.getState().saveAutomation(undefined, { name: 'Digest', prompt: 'p', cronExpression: '0 7 * * *', timezone: 'Europe/Berlin' });
    expect(store.getState().automations.map((a) => a.name)).toEqual(['Digest']);
    await store.getState().saveAutomation(created.id, { enabled: false });
    expect(store.getState().automations[0]).toMatchObject({ enabled: false, nextRuns: [] });
    const refusal = await store.getState().saveAutomation(undefined, { name: 'Bad', prompt: 'p', cronExpression: '0 7 * *' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ code: 'invalid_cron', field: 'cronExpression' });
    expect(store.getState().automations).toHaveLength(1);
    disconnect();
  });

  it('follows live events: instance status, run status and activity lines arrive without a reload', async () => {
    const { store, disconnect } = connectStore(t);
    const instance = await store.getState().createInstance({ name: 'Live echo', agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    expect(instance.status).toBe('provisioning');
    await t.core.services.instances.idle();
    await expect.poll(() => store.getState().instances.find((each) => each.id === instance.id)?.status).toBe('running');
    const run = await store.getState().sendPrompt(instance.id, 'hello, store');
    // A shown thread: loaded once, then only what is new arrives with the live lines.
    await store.getState().loadThread(run.threadId);
    await expect.poll(() => store.getState().runs.find((each) => each.id === run.id)?.status).toBe('succeeded');
    await expect.poll(() => store.getState().threads[run.threadId]?.map((message) => [message.role, message.content])).toEqual([
      ['user', 'hello, store'],
      ['assistant', 'hello, store'],
    ]);
    // Live lines reach the store in batches (events.ts): the last one may land a moment after the run's end.
    await expect.poll(() => store.getState().activity.filter((line) => line.runId === run.id).map((line) => line.kind)).toEqual(['user', 'assistant', 'system']);
    disconnect();
  });
});

describe('answers and live events racing', () => {
  it('an action’s answer never replaces a newer state a live event already brought', async () => {
    const instance = { id: 'ins_01', name: 'Racer', status: 'provisioning', statusReason: null, imageTag: '', avatarUrl: '', fqdn: 'racer.localhost', location: 'local', agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: { mode: 'sandbox', network: [] as string[], readAllow: [] as string[], readDeny: [] as string[], writeAllow: [] as string[] }, budget: {}, permissions: { mode: 'bypass', timeoutSeconds: 600 }, workspaceDir: '/w', isDefault: false, createdAt: '2026-11-21T10:00:00.000Z', updatedAt: '2026-11-21T10:00:00.000Z' } as const;
    let answer: (value: unknown) => void = () => undefined;
    // The client's answer to instances.create is held back until the live event has landed.
    const client = { call: () => new Promise((resolve) => (answer = resolve)), subscribe: () => () => undefined } as unknown as StewardClient;
    const store = createAppStore(client);
    const creating = store.getState().createInstance({ name: 'Racer' });
    store.getState().upsertInstance({ ...instance, status: 'running', imageTag: 'custom:cat', updatedAt: '2026-11-21T10:00:00.004Z' });
    answer({ instance });
    await creating;
    expect(store.getState().instances).toMatchObject([{ id: 'ins_01', status: 'running', imageTag: 'custom:cat' }]);
  });
});
