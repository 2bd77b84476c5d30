// Chained automations through the API and the real runner (custom command agents): B runs after A
// with A's answer in its prompt; a loop is refused at save; a chain stops at runner.maxRunDepth with
// a feed line, and at a follower's budget; a run that is retried starts its followers only when the retry ends; deleting an
// automation disables its followers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEvent, Run } from '../../src/shared/contract';
import { chainAfter } from '../../src/main/core/services/chains';
import { enqueueRun } from '../../src/main/core/services/run-queue';
import type { EndedStatus } from '../../src/main/core/store/repositories/runs';
import { type TestCore, startTestCore } from '../support/core';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
let reporter: string;
let echoer: string;

const sh = (script: string) => ({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', script] });

beforeAll(async () => {
  t = await startTestCore();
  reporter = (await t.api('POST', '/api/instances', { name: 'reporter', agent: sh('cat >/dev/null; echo "3 pull requests wait for review"') })).body.instance.id;
  echoer = (await t.api('POST', '/api/instances', { name: 'echoer', agent: sh('echo "I was asked: $(cat)"') })).body.instance.id;
});
afterAll(() => t.close());

async function automation(body: Record<string, unknown>): Promise<string> {
  const made = await t.api('POST', '/api/automations', body);
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.automation.id;
}

const after = (automationId: string, on?: string[]) => ({ trigger: { after: { automationId, ...(on ? { on } : {}) } } });

/** The runs of an automation, newest first. */
async function runsOf(automationId: string): Promise<Run[]> {
  return (await t.api('GET', `/api/runs?sourceId=${automationId}`)).body.runs;
}

async function firstRunOf(automationId: string): Promise<Run> {
  const [run] = await waitFor(() => runsOf(automationId), { what: `a run of ${automationId}`, until: (runs) => runs.length > 0 });
  return settled(t, run.id);
}

describe('a chain', () => {
  it("runs B after A, with A's answer, status, id and summary in B's prompt, as A's child", async () => {
    const a = await automation({ name: 'Review queue', prompt: 'Count open pull requests', cronExpression: '0 9 * * *', instanceId: reporter });
    const b = await automation({
      name: 'Post summary',
      prompt: 'Post this: {{previous.output}} (A {{previous.status}}, run {{ previous.runId }}, summary "{{previous.summary}}", keep $& and $1)',
      instanceId: echoer,
      ...after(a),
    });
    expect((await t.api('GET', `/api/automations/${b}`)).body.automation).toMatchObject({ cronExpression: null, nextRuns: [] });

    const aRun = await settled(t, (await t.api('POST', `/api/automations/${a}/run`)).body.run.id);
    expect(aRun.status).toBe('succeeded');
    const bRun = await firstRunOf(b);
    expect(bRun.prompt).toBe(`Post this: 3 pull requests wait for review (A succeeded, run ${aRun.id}, summary "", keep $& and $1)`);
    expect(bRun).toMatchObject({ status: 'succeeded', parentRunId: aRun.id, depth: aRun.depth! + 1 });
    const { messages } = (await t.api('GET', `/api/runs/${bRun.id}/messages`)).body;
    expect(messages.at(-1).content).toContain('I was asked: Post this: 3 pull requests wait for review');
  });

  it('follows only the endings it names', async () => {
    const failing = (await t.api('POST', '/api/instances', { name: 'failing', agent: sh('cat >/dev/null; echo "disk full" >&2; exit 2') })).body.instance.id;
    const a = await automation({ name: 'Backup', prompt: 'Back up', cronExpression: '0 3 * * *', instanceId: failing });
    const onSuccess = await automation({ name: 'Celebrate', prompt: 'It worked', instanceId: echoer, ...after(a) });
    const onFailure = await automation({ name: 'Investigate', prompt: 'Backup {{previous.status}}: look at {{previous.runId}}', instanceId: echoer, ...after(a, ['failed', 'timed_out']) });
    const aRun = await settled(t, (await t.api('POST', `/api/automations/${a}/run`)).body.run.id);
    expect(aRun.status).toBe('failed');
    expect((await firstRunOf(onFailure)).prompt).toBe(`Backup failed: look at ${aRun.id}`);
    expect(await runsOf(onSuccess)).toEqual([]);
  });

  it('stops at runner.maxRunDepth: the link past it is not queued, and the feed says why', async () => {
    expect((await t.api('PATCH', '/api/settings', { runner: { maxRunDepth: 1 } })).status).toBe(200);
    const a = await automation({ name: 'Step 1', prompt: 'one', cronExpression: '0 1 * * *', instanceId: reporter });
    const b = await automation({ name: 'Step 2', prompt: 'two: {{previous.output}}', instanceId: echoer, ...after(a) });
    const c = await automation({ name: 'Step 3', prompt: 'three', instanceId: echoer, ...after(b) });
    await settled(t, (await t.api('POST', `/api/automations/${a}/run`)).body.run.id);
    const bRun = await firstRunOf(b);
    expect(bRun.depth).toBe(1);
    // B's end is written with its feed lines; by the time it is settled, C would have been queued.
    expect(await runsOf(c)).toEqual([]);
    const { events } = (await t.api('GET', `/api/activity?instanceIds=${echoer}&kinds=system`)).body as { events: ActivityEvent[] };
    expect(events.find((line) => line.runId === bRun.id && line.displayText.startsWith('Step 3 did not start'))?.displayText).toMatch(/runner\.maxRunDepth/);
    await t.api('PATCH', '/api/settings', { runner: { maxRunDepth: 3 } });
  });
});

describe('a chain over budget', () => {
  it('skips the link whose automation is over its budget, saying so', async () => {
    const a = await automation({ name: 'Collect', prompt: 'collect', cronExpression: '0 2 * * *', instanceId: reporter });
    const b = await automation({ name: 'Expensive follow-up', prompt: 'spend', instanceId: echoer, budget: { usdPerDay: 0.01 }, ...after(a) });
    const { store } = t.core;
    // Today's spend of B: an earlier run that cost more than its day's budget.
    store.transaction(() => {
      const earlier = enqueueRun(store, { instanceId: echoer, threadId: store.automations.get(b)!.threadId, source: 'automation', sourceId: b, prompt: 'spend' }, new Date());
      store.runs.setUsage(earlier.id, { costUsd: 0.02, inputTokens: 10, outputTokens: 10 });
      store.runs.finish(earlier.id, 'succeeded', new Date().toISOString(), null, null);
    });
    await settled(t, (await t.api('POST', `/api/automations/${a}/run`)).body.run.id);
    expect((await runsOf(b)).length).toBe(1);
    const { events } = (await t.api('GET', `/api/activity?instanceIds=${echoer}&kinds=system`)).body as { events: ActivityEvent[] };
    expect(events.map((line) => line.displayText)).toContainEqual(expect.stringMatching(/^Run not started\. Over budget: automation "Expensive follow-up"/));
  });
});

describe('saving a chain', () => {
  it('refuses a loop, naming it, and a predecessor that does not exist; nothing changes', async () => {
    const a = await automation({ name: 'Fetch', prompt: 'fetch', cronExpression: '0 * * * *', instanceId: echoer });
    const b = await automation({ name: 'Sort', prompt: 'sort', instanceId: echoer, ...after(a) });
    const c = await automation({ name: 'Send', prompt: 'send', instanceId: echoer, ...after(b) });

    const loop = await t.api('PUT', `/api/automations/${a}`, after(c));
    expect(loop.status).toBe(400);
    expect(loop.body.error).toMatchObject({ code: 'cycle', field: 'trigger.after.automationId' });
    expect(loop.body.error.message).toContain('Fetch → Send → Sort → Fetch');
    const itself = await t.api('PUT', `/api/automations/${b}`, after(b));
    expect(itself.body.error).toMatchObject({ code: 'cycle' });
    expect(itself.body.error.message).toContain('Sort → Sort');
    expect((await t.api('GET', `/api/automations/${a}`)).body.automation).toMatchObject({ cronExpression: '0 * * * *', trigger: null });

    const missing = await t.api('POST', '/api/automations', { name: 'Orphan', prompt: 'x', instanceId: echoer, ...after('aut_01JZZZZZZZZZZZZZZZZZZZZZZZ') });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'invalid_field', field: 'trigger.after.automationId' });
    expect(missing.body.error.message).toContain('aut_01JZZZZZZZZZZZZZZZZZZZZZZZ');
  });

  it('disables the followers of a deleted automation; switching one on again needs another predecessor or a schedule', async () => {
    const a = await automation({ name: 'Source', prompt: 'x', cronExpression: '0 * * * *', instanceId: echoer });
    const b = await automation({ name: 'Follower', prompt: 'y', instanceId: echoer, ...after(a) });
    expect((await t.api('DELETE', `/api/automations/${a}`)).status).toBe(204);
    expect((await t.api('GET', `/api/automations/${b}`)).body.automation).toMatchObject({ enabled: false, trigger: { after: { automationId: a } } });
    expect((await t.api('PUT', `/api/automations/${b}`, { name: 'Follower, kept' })).status).toBe(200);
    expect((await t.api('PUT', `/api/automations/${b}`, { enabled: true })).body.error).toMatchObject({ code: 'invalid_field', field: 'trigger.after.automationId' });
    expect((await t.api('PUT', `/api/automations/${b}`, { enabled: true, cronExpression: '0 8 * * *' })).body.automation).toMatchObject({ enabled: true, trigger: null });
  });
});

describe('a retried run', () => {
  it('starts its followers only when the retry ends', async () => {
    // A stopped instance: the runs written here wait, so the runner takes none of them meanwhile.
    const idle = (await t.api('POST', '/api/instances', { name: 'idle', agent: sh('cat') })).body.instance.id;
    expect((await t.api('POST', `/api/instances/${idle}/stop`)).status).toBe(200);
    const a = await automation({ name: 'Flaky', prompt: 'x', cronExpression: '0 * * * *', instanceId: idle, enabled: false });
    const b = await automation({ name: 'After flaky', prompt: 'after {{previous.runId}}', instanceId: idle, ...after(a, ['failed', 'succeeded']) });
    const { store } = t.core;
    const record = store.automations.get(a)!;
    const at = new Date();
    const request = { instanceId: idle, threadId: record.threadId, source: 'automation' as const, sourceId: a, prompt: 'x' };
    const ended = (run: Run, status: EndedStatus): Run => {
      store.runs.claim(run.id, at.toISOString());
      store.runs.finish(run.id, status, at.toISOString(), null, null);
      return store.runs.get(run.id)!;
    };
    store.transaction(() => {
      const failed = ended(enqueueRun(store, request, at), 'failed');
      enqueueRun(store, { ...request, retryOf: failed.id }, at);
      chainAfter(store, failed, at);
    });
    expect(store.runs.list({ sourceId: b, limit: 10 })).toEqual([]);
    const retry = store.runs.list({ sourceId: a, limit: 10 }).find((run) => run.retryOf)!;
    store.transaction(() => chainAfter(store, ended(retry, 'succeeded'), at));
    expect(store.runs.list({ sourceId: b, limit: 10 }).map((run) => run.prompt)).toEqual([`after ${retry.id}`]);
  });
});
