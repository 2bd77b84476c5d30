// A channel `on: attention` through a real loopback receiver: of runs whose agents report each
// outcome through their own key (a real child process calling Steward's MCP server), only the failed run
// and the one that needs attention are sent; the one with nothing to report is quiet even under `all`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { NotificationDelivery, Run } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { reportingAgent } from '../support/reporting-agent';
import { settled } from '../support/runs';


let t: TestCore;
let reporter: string;
let breaks: string;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, notificationTiming: { retryDelaysMs: [20], attemptTimeoutMs: 2_000 } });
  reporter = (await t.api('POST', '/api/instances', { name: 'Reporter', agent: reportingAgent })).body.instance.id;
  breaks = (await t.api('POST', '/api/instances', { name: 'Breaks', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'exit 3'] } })).body.instance.id;
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const runOn = async (instanceId: string, prompt: string): Promise<Run> => settled(t, (await t.api('POST', '/api/runs', { instanceId, prompt })).body.run.id as string);
const deliveriesOf = async (runId: string): Promise<NotificationDelivery[]> => (await t.api('GET', `/api/runs/${runId}/notifications`)).body.deliveries;

describe('a channel on attention', () => {
  it('is sent the failed run and the run that needs attention, and nothing else', async () => {
    const made = await t.api('POST', '/api/notification-channels', { name: 'Pager', kind: 'webhook', url: `${receiver.url}/attention`, on: 'attention' });
    expect(made.status, made.text).toBe(201);
    const everything = await t.api('POST', '/api/notification-channels', { name: 'Log', kind: 'webhook', url: `${receiver.url}/all`, on: 'all' });
    expect(everything.status, everything.text).toBe(201);

    const quiet = await runOn(reporter, 'nothing_to_report: No new tickets.');
    const done = await runOn(reporter, 'done: Renewed the certificate.');
    const attention = await runOn(reporter, 'needs_attention: The disk is 97% full.');
    const failed = await runOn(breaks, 'go');
    expect([quiet, done, attention, failed].map((run) => [run.status, run.outcome]), JSON.stringify((await t.api('GET', `/api/runs/${quiet.id}/messages`)).body.messages)).toEqual([
      ['succeeded', 'nothing_to_report'],
      ['succeeded', 'done'],
      ['succeeded', 'needs_attention'],
      ['failed', null],
    ]);

    // Deliveries are written as each run ends: by now every one that will be sent exists.
    const received = await receiver.waitFor(5);
    const runIdsAt = (path: string) => received.filter((request) => request.path === path).map((request) => (JSON.parse(request.body) as { data: { runId: string } }).data.runId).sort();
    expect(runIdsAt('/attention')).toEqual([attention.id, failed.id].sort());
    expect(runIdsAt('/all')).toEqual([done.id, attention.id, failed.id].sort());
    expect(await deliveriesOf(quiet.id)).toEqual([]);
    // What needs attention says what, in the agent's words.
    const told = received.find((request) => request.path === '/attention' && JSON.parse(request.body).data.runId === attention.id)!;
    expect(JSON.parse(told.body).data).toMatchObject({ status: 'succeeded', outcome: 'needs_attention', summary: 'The disk is 97% full.' });
  });
});
