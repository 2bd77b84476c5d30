// Backpressure from the runner's commit queue into an agent's pipe: three runs printing 10,000
// lines each have every line recorded once and in order, with the run's end after its last line,
// while the writes waiting to commit stay under the batcher's bound; a run cancelled while its
// agent is blocked on its full output ends cancelled and leaves no process; an agent that floods
// stderr while its stdout is held back does not deadlock.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { queueBound } from '../../src/main/core/services/commit-batcher';
import { type TestCore, startTestCore } from '../support/core';
import { processesOfRun } from '../support/processes';
import { settled } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  await t.api('PATCH', '/api/settings', { runner: { maxRunning: 3 } });
});
afterAll(() => t.close());

const linesPerRun = 10_000;
const padding = 'x'.repeat(80);

async function instanceWith(script: string, name: string): Promise<string> {
  const { body } = await t.api('POST', '/api/instances', { name, agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `cat >/dev/null; ${script}`] } });
  return (body as { instance: { id: string } }).instance.id;
}

async function startRun(instanceId: string): Promise<string> {
  return ((await t.api('POST', '/api/runs', { instanceId, prompt: 'print' })).body as { run: { id: string } }).run.id;
}

const activityOf = (runId: string) => t.core.store.db.prepare<[string], { kind: string; display_text: string }>('SELECT kind, display_text FROM activity WHERE run_id = ? ORDER BY line').all(runId);
const messagesOf = (runId: string) => t.core.store.db.prepare<[string], { content: string }>("SELECT content FROM messages WHERE run_id = ? AND role = 'assistant' ORDER BY seq").all(runId);
const printed = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, n) => `line ${from + n} ${padding}`);

/** Whether one of the run's processes sleeps in a write to its full output (Node's stdio pipes are Unix sockets; Linux). */
const blockedOnPipe = (runId: string) =>
  processesOfRun(runId).some((pid) => {
    try {
      return /pipe_write|sock_alloc_send|unix_stream_sendmsg|wait_for_space/.test(fs.readFileSync(`/proc/${pid}/wchan`, 'utf8'));
    } catch {
      return false;
    }
  });

describe('an agent printing faster than Steward records', () => {
  it('three runs of 10,000 lines: every line once and in order, the end after the last, the queue under its bound', { timeout: 300_000 }, async () => {
    const instances = [];
    for (let n = 0; n < 3; n++) instances.push(await instanceWith(`seq -f 'line %g ${padding}' ${linesPerRun}`, `printer ${n}`));
    const runIds = await Promise.all(instances.map(startRun));
    for (const id of runIds) expect(await settled(t, id, 240_000)).toMatchObject({ status: 'succeeded' });

    const expected = printed(1, linesPerRun);
    for (const id of runIds) {
      const activity = activityOf(id);
      expect(activity.filter((line) => line.kind === 'assistant').map((line) => line.display_text)).toEqual(expected);
      expect(activity.at(-1)).toMatchObject({ kind: 'system', display_text: expect.stringMatching(/^Run succeeded after/) });
      expect(messagesOf(id).map((message) => message.content)).toEqual(expected);
    }
    // Each line is one write; the runs' ends (one each) are the only writes no output waits for.
    const { most } = t.core.services.runner.queuedWrites();
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(queueBound + runIds.length);
  });

  it('a run cancelled while its agent is blocked on its full output ends cancelled and leaves no process', { timeout: 120_000 }, async () => {
    const runId = await startRun(await instanceWith(`yes 'line ${padding}'`, 'endless'));
    await waitFor(() => blockedOnPipe(runId), { what: 'the agent to block on its full pipe', timeoutMs: 60_000, intervalMs: 20 });
    expect((await t.api('POST', `/api/runs/${runId}/cancel`)).status).toBe(202);
    expect(await settled(t, runId, 60_000)).toMatchObject({ status: 'cancelled', error: 'Cancelled.' });
    expect(processesOfRun(runId)).toEqual([]);
    expect(activityOf(runId).at(-1)).toMatchObject({ kind: 'system', display_text: expect.stringMatching(/^Run cancelled after/) });
  });

  it('an agent writing 1 MB to stderr while its stdout is held back does not deadlock', { timeout: 180_000 }, async () => {
    // stdout and stderr written at once by two processes: one blocks on stdout while the other writes stderr.
    const runId = await startRun(await instanceWith(`seq -f 'line %g ${padding}' 20000 & head -c 1048576 /dev/zero | tr '\\0' e >&2; wait`, 'both streams'));
    const run = await settled(t, runId, 150_000);
    expect(run).toMatchObject({ status: 'succeeded' });
    expect(run.stderr).toMatch(/^e{65536}$/);
    expect(messagesOf(runId).map((message) => message.content)).toEqual(printed(1, 20_000));
  });
});
