// What the run page and the chat need: one run's own messages (GET /api/runs/{id}/messages), why
// a queued run waits (`queue` on GET /api/runs/{id}), an instance's chats (GET /api/threads), and
// the activity label of an automation's run started by hand (`api`) next to a scheduled one (`cron`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { enqueueRun } from '../../src/main/core/services/run-queue';
import { Message, RunQueue, ThreadSummary } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

const instanceWith = async (name: string, agent: object) => {
  const { instance } = (await t.api('POST', '/api/instances', { name, agent })).body;
  await t.core.services.instances.idle();
  return instance as { id: string };
};
const echo = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "you said: $(cat)"'] };
const sleeper = { provider: 'command', preset: 'custom', command: 'sleep', args: ['30'] };
const prompt = (instanceId: string, text: string, threadId?: string) => t.api('POST', '/api/runs', { instanceId, prompt: text, ...(threadId ? { threadId } : {}) });
const queueOf = async (runId: string) => (await t.api('GET', `/api/runs/${runId}`)).body.queue as RunQueue | null;

describe("a run's messages", () => {
  it('are that run’s part of the thread only, paged by seq', async () => {
    const instance = await instanceWith('Echo', echo);
    const first = (await prompt(instance.id, 'one')).body.run;
    await settled(t, first.id);
    const second = (await prompt(instance.id, 'two', first.threadId)).body.run;
    await settled(t, second.id);
    expect(second.threadId).toBe(first.threadId);
    const of = async (runId: string, query = '') => (await t.api('GET', `/api/runs/${runId}/messages${query}`)).body;
    const page = await of(second.id);
    expect(page.messages.map((m: Message) => [m.role, m.content, m.runId])).toEqual([
      ['user', 'two', second.id],
      ['assistant', 'you said: two', second.id],
    ]);
    expect(page.hasMore).toBe(false);
    for (const message of page.messages) Message.parse(message);
    const head = await of(first.id, '?limit=1');
    expect(head).toMatchObject({ hasMore: true, messages: [{ role: 'user', content: 'one' }] });
    const rest = await of(first.id, `?after=${head.messages[0].seq}`);
    expect(rest).toMatchObject({ hasMore: false, messages: [{ role: 'assistant', content: 'you said: one' }] });
    expect((await t.api('GET', '/api/runs/run_nope/messages')).status).toBe(404);
  });
});

describe('why a queued run waits', () => {
  it('its instance is stopped, then busy, with its place in the queue; a run that is not queued has no queue', async () => {
    const instance = await instanceWith('Queue', sleeper);
    await t.api('POST', `/api/instances/${instance.id}/stop`);
    const a = (await prompt(instance.id, 'a')).body.run;
    const b = (await prompt(instance.id, 'b')).body.run;
    expect(RunQueue.parse(await queueOf(a.id))).toMatchObject({ position: 1, reason: 'instance_stopped', message: expect.stringContaining('Queue is stopped'), blockingRunId: null });
    expect(await queueOf(b.id)).toMatchObject({ position: 2, reason: 'instance_stopped' });
    await t.api('POST', `/api/instances/${instance.id}/start`);
    await expect.poll(async () => (await t.api('GET', `/api/runs/${a.id}`)).body.run.status).toBe('running');
    expect(await queueOf(a.id)).toBeNull();
    expect(await queueOf(b.id)).toMatchObject({ position: 1, reason: 'instance_busy', blockingRunId: a.id });
    await t.api('POST', `/api/runs/${b.id}/cancel`);
    await t.api('POST', `/api/runs/${a.id}/cancel`);
    expect((await settled(t, a.id)).status).toBe('cancelled');
  });

  it('or every slot of the runner is taken', async () => {
    await t.api('PATCH', '/api/settings', { runner: { maxRunning: 1 } });
    try {
      const busy = await instanceWith('Busy', sleeper);
      const idle = await instanceWith('Idle', echo);
      const long = (await prompt(busy.id, 'long')).body.run;
      await expect.poll(async () => (await t.api('GET', `/api/runs/${long.id}`)).body.run.status).toBe('running');
      const waiting = (await prompt(idle.id, 'short')).body.run;
      expect(await queueOf(waiting.id)).toMatchObject({ position: 1, reason: 'runner_full', message: expect.stringContaining('runs at the same time is 1') });
      await t.api('POST', `/api/runs/${long.id}/cancel`);
      expect((await settled(t, waiting.id)).status).toBe('succeeded');
    } finally {
      await t.api('PATCH', '/api/settings', { runner: { maxRunning: 2 } });
    }
  });
});

describe('the chats of an instance', () => {
  it('lists its chat threads, the most recently active first, with their first prompt', async () => {
    const instance = await instanceWith('Chatty', echo);
    const other = await instanceWith('Other', echo);
    const older = (await prompt(instance.id, 'first chat')).body.run;
    await settled(t, older.id);
    const newer = (await prompt(instance.id, 'second chat')).body.run;
    await settled(t, newer.id);
    await settled(t, (await prompt(other.id, 'elsewhere')).body.run.id);
    const list = async (query: string) => (await t.api('GET', `/api/threads?${query}`)).body.threads as ThreadSummary[];
    const chats = await list(`instanceId=${instance.id}&ownerType=chat`);
    expect(chats.map((chat) => chat.firstPrompt)).toEqual(['second chat', 'first chat']);
    expect(chats[0]).toMatchObject({ id: newer.threadId, ownerType: 'chat', ownerId: instance.id, runCount: 1, lastRunStatus: 'succeeded' });
    for (const chat of chats) ThreadSummary.parse(chat);
    // Continuing the older chat makes it the most recent.
    await settled(t, (await prompt(instance.id, 'back again', older.threadId)).body.run.id);
    const after = await list(`instanceId=${instance.id}&ownerType=chat`);
    expect(after.map((chat) => [chat.firstPrompt, chat.runCount])).toEqual([['first chat', 2], ['second chat', 1]]);
    expect(await list(`instanceId=${instance.id}&ownerType=chat&limit=1`)).toHaveLength(1);
    expect(await list(`instanceId=${other.id}&ownerType=automation`)).toEqual([]);
  });

  it('includes automation threads that ran on the instance, and refuses bad filters', async () => {
    const instance = await instanceWith('Worker', echo);
    const { automation } = (await t.api('POST', '/api/automations', { name: 'nightly', prompt: 'p', cronExpression: '@yearly', instanceId: instance.id })).body;
    await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    const threads = (await t.api('GET', `/api/threads?instanceId=${instance.id}`)).body.threads as ThreadSummary[];
    expect(threads.map((thread) => [thread.ownerType, thread.ownerId])).toEqual([['automation', automation.id]]);
    expect((await t.api('GET', '/api/threads?ownerType=robot')).body.error).toMatchObject({ code: 'invalid_field', field: 'ownerType' });
    expect((await t.api('GET', '/api/threads?limit=0')).status).toBe(400);
  });
});

describe('activity labels', () => {
  it('an automation run started by hand is `api`; a scheduled fire is `cron`', async () => {
    const instance = await instanceWith('Labeller', echo);
    const { automation } = (await t.api('POST', '/api/automations', { name: 'labels', prompt: 'p', cronExpression: '@yearly', instanceId: instance.id })).body;
    const byHand = (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run;
    await settled(t, byHand.id);
    const fired = t.core.store.transaction(() => enqueueRun(t.core.store, { instanceId: instance.id, threadId: automation.threadId, source: 'automation', sourceId: automation.id, prompt: 'p', scheduledFor: new Date() }, new Date()));
    t.core.services.runner.nudge();
    await settled(t, fired.id);
    const labels = (runId: string) => [...new Set(t.core.store.db.prepare<[string], { label: string }>('SELECT label FROM activity WHERE run_id = ?').all(runId).map((row) => row.label))];
    expect(labels(byHand.id)).toEqual(['api']);
    expect(labels(fired.id)).toEqual(['cron']);
  });
});
