// Retries on the moved clock: a run that failed for a reason its automation's (or webhook's) retry
// policy names is queued again in its thread, starts no earlier than its backoff (and holds up no
// other run meanwhile), stops at the policy's count, and only the last attempt notifies; a refused
// key is never retried; a usage limit is retried once, at its reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { ManualClock } from '../support/clock';
import { type TestCore, request, startTestCore } from '../support/core';
import { startReceiver, type Receiver } from '../support/receiver';
import { settled } from '../support/runs';

let t: TestCore;
let clock: ManualClock;
let receiver: Receiver;

beforeAll(async () => {
  clock = new ManualClock('2026-11-25T10:00:00Z');
  t = await startTestCore({ clock });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t.close();
  await receiver.close();
});

/** An instance whose agent fails saying `stderr` for its first `failures` runs, then succeeds. */
async function failingInstance(name: string, stderr: string, failures = Infinity): Promise<string> {
  // The count lives in the instance's workspace: the one folder its sandboxed runs may write.
  const script = `echo x >> attempts; if [ $(wc -l < attempts) -le ${Number.isFinite(failures) ? failures : 1_000_000} ]; then echo '${stderr}' >&2; exit 1; fi; echo done`;
  const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', script] };
  const created = await t.api('POST', '/api/instances', { name, agent });
  expect(created.status).toBe(201);
  return created.body.instance.id;
}

const runsOf = async (sourceId: string): Promise<Run[]> => ((await t.api('GET', `/api/runs?sourceId=${sourceId}`)).body.runs as Run[]).reverse();
const linesOf = async (run: Run): Promise<string[]> =>
  ((await t.api('GET', `/api/instances/${run.instanceId}/activity?limit=1000`)).body.events as { runId: string; displayText: string }[]).filter((line) => line.runId === run.id).map((line) => line.displayText);

/** The retry queued for `run`, once its end is written. */
async function retryOf(run: Run): Promise<Run> {
  const retry = (await runsOf(run.sourceId!)).find((each) => each.retryOf === run.id);
  if (!retry) throw new Error(`run ${run.id} was not retried`);
  return retry;
}

let witness: string | undefined;
/**
 * Returns once the runner has been through its queue since the call: a run queued now, on an
 * instance of its own, has ended. The runner starts every run it may in one pass, so a run it
 * should not start (a retry before its time, or one not meant to be) has had its chance to start.
 */
async function runnerPassed(): Promise<void> {
  witness ??= (await t.api('POST', '/api/instances', { name: 'witness', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance.id as string;
  const { run } = (await t.api('POST', '/api/runs', { instanceId: witness, prompt: 'Anything to start?' })).body;
  expect(await settled(t, run.id)).toMatchObject({ status: 'succeeded' });
}

describe('an automation with retries', () => {
  it('retries a rate-limited run after its backoff, doubling, and stops at the count; only the last attempt notifies', async () => {
    const channel = await t.api('POST', '/api/notification-channels', { name: 'Failures', kind: 'webhook', url: receiver.url, on: 'failures' });
    expect(channel.status).toBe(201);
    const instanceId = await failingInstance('limited', 'Error: 429 Too Many Requests');
    const created = await t.api('POST', '/api/automations', { name: 'Nightly', prompt: 'Check the build', cronExpression: '@yearly', instanceId, retry: { attempts: 2, backoffSeconds: 30 } });
    expect(created.status).toBe(201);
    expect(created.body.automation.retry).toEqual({ attempts: 2, backoffSeconds: 30, on: ['rate_limit', 'overloaded', 'network', 'timeout'] });
    const { automation } = created.body;

    const first = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(first).toMatchObject({ status: 'failed', errorClass: 'rate_limit', retryOf: null });
    const second = await retryOf(first);
    expect(second).toMatchObject({ status: 'queued', threadId: first.threadId, instanceId, source: 'automation', sourceId: automation.id, prompt: 'Check the build', retryOf: first.id });
    // 30 s, and up to a fifth more of jitter.
    const wait = Date.parse(second.startAfter!) - Date.parse(first.finishedAt!);
    expect(wait).toBeGreaterThanOrEqual(30_000);
    expect(wait).toBeLessThanOrEqual(36_000);
    expect(await linesOf(first)).toContain(`Retrying at ${second.startAfter!.replace(/\.\d{3}Z$/, 'Z')} (retry 1 of 2): rate limited`);
    expect((await t.api('GET', `/api/runs/${second.id}`)).body.queue).toMatchObject({ reason: 'retry_wait', message: `Waits to retry until ${second.startAfter}.` });

    // Not a moment early; and meanwhile another run of the same instance is not held up behind it.
    clock.advanceTo(new Date(Date.parse(second.startAfter!) - 1));
    // Queued while the instance is stopped, it is first in line: the waiting retry is not ahead of it.
    expect((await t.api('POST', `/api/instances/${instanceId}/stop`)).status).toBe(200);
    const otherId = (await t.api('POST', '/api/runs', { instanceId, prompt: 'Something else' })).body.run.id;
    expect((await t.api('GET', `/api/runs/${otherId}`)).body.queue).toMatchObject({ position: 1, reason: 'instance_stopped' });
    expect((await t.api('POST', `/api/instances/${instanceId}/start`)).status).toBeLessThan(300);
    const other = await settled(t, otherId);
    expect(other.status).toBe('failed');
    await runnerPassed();
    expect((await t.api('GET', `/api/runs/${second.id}`)).body.run.status).toBe('queued');

    clock.advanceTo(second.startAfter!);
    const secondEnd = await settled(t, second.id);
    expect(secondEnd).toMatchObject({ status: 'failed', errorClass: 'rate_limit' });
    const third = await retryOf(secondEnd);
    const secondWait = Date.parse(third.startAfter!) - Date.parse(secondEnd.finishedAt!);
    expect(secondWait).toBeGreaterThanOrEqual(60_000);
    expect(secondWait).toBeLessThanOrEqual(72_000);

    clock.advanceTo(third.startAfter!);
    const thirdEnd = await settled(t, third.id);
    expect(thirdEnd).toMatchObject({ status: 'failed', errorClass: 'rate_limit', retryOf: second.id });
    expect(await linesOf(thirdEnd)).toContain('Not retried: all 2 retries were used (rate limited)');
    expect((await runsOf(automation.id)).map((run) => run.id)).toEqual([first.id, second.id, third.id]);

    // Of the three failures, the last one notifies (the other run of the instance is no automation's, and notifies too).
    const notified = t.core.store.db.prepare<[], { run_id: string }>('SELECT run_id FROM notification_deliveries').all().map((row) => row.run_id);
    expect(notified.filter((id) => [first.id, second.id, third.id].includes(id))).toEqual([third.id]);
    expect(notified).toContain(other.id);
    await t.api('DELETE', `/api/notification-channels/${channel.body.channel.id}`);
  });

  it('ends its retries when one succeeds', async () => {
    const instanceId = await failingInstance('overloaded-once', 'API Error: 529 Overloaded', 1);
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Once', prompt: 'Go', cronExpression: '@yearly', instanceId, retry: { attempts: 3, backoffSeconds: 10 } })).body;
    const first = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(first.errorClass).toBe('overloaded');
    const second = await retryOf(first);
    clock.advanceTo(second.startAfter!);
    expect(await settled(t, second.id)).toMatchObject({ status: 'succeeded', errorClass: null });
    expect(await runsOf(automation.id)).toHaveLength(2);
  });

  it('never retries a refused key, even with attempts left', async () => {
    const instanceId = await failingInstance('refused', 'Invalid API key · Please run /login');
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Keyless', prompt: 'Go', cronExpression: '@yearly', instanceId, retry: { attempts: 3, backoffSeconds: 10 } })).body;
    const first = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(first).toMatchObject({ status: 'failed', errorClass: 'auth' });
    await runnerPassed();
    expect(await runsOf(automation.id)).toHaveLength(1);
  });

  it('does not retry a class its policy leaves out', async () => {
    const instanceId = await failingInstance('network-only', 'Error: 429 Too Many Requests');
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Picky', prompt: 'Go', cronExpression: '@yearly', instanceId, retry: { attempts: 3, backoffSeconds: 10, on: ['network'] } })).body;
    await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    await runnerPassed();
    expect(await runsOf(automation.id)).toHaveLength(1);
  });

  it('retries a usage limit once, at the reset time the agent said', async () => {
    const reset = new Date(2026, 10, 26, 13, 20);
    const said = `You’ve hit your usage limit. Upgrade to Pro or try again at Nov 26th, 2026 1:20 PM.`;
    const instanceId = await failingInstance('usage', said);
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Quota', prompt: 'Go', cronExpression: '@yearly', instanceId, retry: { attempts: 3, backoffSeconds: 10, on: ['usage_limit'] } })).body;
    const first = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(first.errorClass).toBe('usage_limit');
    const second = await retryOf(first);
    expect(second.startAfter).toBe(reset.toISOString());
    clock.advanceTo(reset);
    const secondEnd = await settled(t, second.id);
    expect(secondEnd.errorClass).toBe('usage_limit');
    await runnerPassed();
    expect(await runsOf(automation.id)).toHaveLength(2);
    expect(await linesOf(secondEnd)).toContain('Not retried: the usage limit was waited for once already (the usage limit was reached)');
  });

  it('cancels a waiting retry as any queued run', async () => {
    const instanceId = await failingInstance('cancelled', 'socket hang up');
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Flaky', prompt: 'Go', cronExpression: '@yearly', instanceId, retry: { attempts: 1, backoffSeconds: 60 } })).body;
    const first = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(first.errorClass).toBe('network');
    const second = await retryOf(first);
    expect((await t.api('POST', `/api/runs/${second.id}/cancel`)).body.run.status).toBe('cancelled');
    clock.advanceTo(new Date(Date.parse(second.startAfter!) + 1000));
    await runnerPassed();
    expect((await t.api('GET', `/api/runs/${second.id}`)).body.run.status).toBe('cancelled');
  });
});

describe('a webhook with retries', () => {
  it('retries its failed run in the same thread after the backoff', async () => {
    const instanceId = await failingInstance('hooked', 'fetch failed', 1);
    const created = await t.api('POST', '/api/webhooks', { name: 'CI', promptTemplate: 'Look at {{payload}}', instanceId, retry: { attempts: 1, backoffSeconds: 5 } });
    expect(created.status).toBe(201);
    const { webhook } = created.body;
    const triggered = await request(`${t.url}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"build":1}' });
    expect(triggered.status).toBe(202);
    const first = await settled(t, triggered.body.run.id);
    expect(first).toMatchObject({ status: 'failed', errorClass: 'network', source: 'webhook' });
    const second = await retryOf(first);
    expect(second).toMatchObject({ source: 'webhook', sourceId: webhook.id, threadId: webhook.threadId, prompt: 'Look at {"build":1}', retryOf: first.id });
    clock.advanceTo(second.startAfter!);
    expect((await settled(t, second.id)).status).toBe('succeeded');
  });
});
