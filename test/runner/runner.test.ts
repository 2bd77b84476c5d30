// The runner with real child processes: a custom agent's output comes back as the reply, in the
// thread and the activity log; failures, timeouts and cancels end as they should, process trees
// included; one run per instance at a time; a full queue answers 503.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import type { Run } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';
import { settled as waitForRun } from '../support/runs';
import { waitFor } from '../support/wait';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());

async function instanceWith(agent: object, name = 'agent') {
  return (await t.api('POST', '/api/instances', { name, agent })).body.instance as { id: string; workspaceDir: string };
}

const settled = (runId: string) => waitForRun(t, runId);

/** The pids of processes whose whole command line is `command`. */
const sleepsOf = (command: string) => {
  try {
    return execFileSync('pgrep', ['-f', `^${command}$`], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return [];
  }
};

const activityOf = (runId: string) =>
  t.core.store.db.prepare<[string], { kind: string; label: string; display_text: string }>('SELECT kind, label, display_text FROM activity WHERE run_id = ? ORDER BY line').all(runId);

describe('a custom agent', () => {
  it('cat: the rendered prompt comes back as the reply, in the webhook thread and the activity log', async () => {
    const instance = await instanceWith({ provider: 'command', preset: 'custom', command: 'cat' }, 'echo');
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'echo', promptTemplate: 'Say back: {{payload}}', instanceId: instance.id })).body;
    const body = '{"a": "$& 1"}';
    const accepted = await request(webhook.triggerUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const run = await settled(accepted.body.run.id);
    expect(run).toMatchObject({ status: 'succeeded', error: null, prompt: `Say back: ${body}` });
    expect(run.startedAt).not.toBeNull();
    expect(run.finishedAt).not.toBeNull();

    const thread = (await t.api('GET', `/api/threads/${webhook.threadId}`)).body.thread;
    expect(thread.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', `Say back: ${body}`],
      ['assistant', `Say back: ${body}`],
    ]);
    expect(activityOf(run.id)).toEqual([
      { kind: 'user', label: 'hook', display_text: `Say back: ${body}` },
      { kind: 'assistant', label: 'hook', display_text: `Say back: ${body}` },
      { kind: 'system', label: 'hook', display_text: expect.stringMatching(/^Run succeeded after [\d.]+ s$/) },
    ]);
  });

  it('gets the prompt as an argument where {prompt} stands, runs in the workspace, with stdin closed', async () => {
    const instance = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "[$1] in $PWD"; cat', 'sh', '{prompt}'] });
    const { automation } = (await t.api('POST', '/api/automations', { name: 'arg', prompt: 'hello there', cronExpression: '@yearly', instanceId: instance.id })).body;
    const { run } = (await t.api('POST', `/api/automations/${automation.id}/run`)).body;
    expect((await settled(run.id)).status).toBe('succeeded');
    const thread = (await t.api('GET', `/api/threads/${automation.threadId}`)).body.thread;
    expect(thread.messages.at(-1)).toMatchObject({ role: 'assistant', content: `[hello there] in ${instance.workspaceDir}` });
    expect(activityOf(run.id)[0]).toMatchObject({ kind: 'user', label: 'api' }); // run now: by hand, not by the schedule
  });

  it('fails with the exit code and its last stderr line, and keeps stderr; a missing command fails clearly', async () => {
    const failing = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo partial; echo "it broke" >&2; exit 3'] });
    const { automation } = (await t.api('POST', '/api/automations', { name: 'f', prompt: 'p', cronExpression: '@yearly', instanceId: failing.id })).body;
    const run = await settled((await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(run).toMatchObject({ status: 'failed', error: 'The agent exited with code 3: it broke', stderr: 'it broke\n' });

    const missing = await instanceWith({ provider: 'command', preset: 'custom', command: 'no-such-agent-binary' });
    const { automation: other } = (await t.api('POST', '/api/automations', { name: 'm', prompt: 'p', cronExpression: '@yearly', instanceId: missing.id })).body;
    const missingRun = await settled((await t.api('POST', `/api/automations/${other.id}/run`)).body.run.id);
    expect(missingRun.status).toBe('failed');
    expect(missingRun.stderr).toContain('no-such-agent-binary was not found on PATH');
  });

  it('never waits for a human: stdin is closed, there is no terminal, and a CLI that asks and waits is stopped', async () => {
    await t.api('PATCH', '/api/settings', { runner: { inputWaitSeconds: 1 } });
    // Reads an answer from stdin after the prompt: gets end-of-file at once.
    const reader = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat >/dev/null; printf "Proceed? [y/N] "; read answer || { echo "no answer" >&2; exit 4; }'] });
    // Asks on the terminal: there is none.
    const tty = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'printf "Password: " > /dev/tty || exit 5'] });
    // Asks, then waits on something else: stopped after the quiet period, with the question in the error.
    const waiter = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'printf "Allow the tool to write files? (y/n) "; sleep 40'] });
    const results = [];
    for (const instance of [reader, tty, waiter]) {
      const { automation } = (await t.api('POST', '/api/automations', { name: 'ask', prompt: 'p', cronExpression: '@yearly', instanceId: instance.id })).body;
      const started = Date.now();
      const run = await settled((await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
      results.push({ run, seconds: (Date.now() - started) / 1000 });
    }
    expect(results[0].run).toMatchObject({ status: 'failed', error: 'The agent exited with code 4: no answer', stderr: 'no answer\n' });
    expect(results[1].run).toMatchObject({ status: 'failed', error: expect.stringMatching(/^The agent exited with code 5: .*tty/) });
    expect(results[1].run.stderr).toMatch(/tty/);
    expect(results[2].run).toMatchObject({ status: 'failed', error: 'The agent asked for input ("Allow the tool to write files? (y/n)") and a run cannot answer; give it its non-interactive or permission flags.' });
    expect(results[2].seconds).toBeLessThan(10);
    await t.api('PATCH', '/api/settings', { runner: { inputWaitSeconds: 10 } });
  });

  it('times out, and the agent and what it started are gone', async () => {
    const slow = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'sleep 41.25 & sleep 41.25'], timeoutSeconds: 1 });
    const { automation } = (await t.api('POST', '/api/automations', { name: 's', prompt: 'p', cronExpression: '@yearly', instanceId: slow.id })).body;
    const run = await settled((await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(run).toMatchObject({ status: 'timed_out' });
    expect(() => execFileSync('pgrep', ['-f', 'sleep 41.25'])).toThrow();
  });

  it('cancels a running run with its whole process tree, and a queued one before it starts', async () => {
    const slow = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'sleep 42.5 & sleep 42.5'] });
    const { automation } = (await t.api('POST', '/api/automations', { name: 'c', prompt: 'p', cronExpression: '@yearly', instanceId: slow.id })).body;
    const first = (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run;
    const second = (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run;
    // Both sleeps started: what the cancel must end is there to end.
    await waitFor(() => sleepsOf('sleep 42.5').length === 2, { what: 'the run\'s two sleeps to start' });
    expect((await t.api('GET', `/api/runs/${first.id}`)).body.run.status).toBe('running');
    expect((await t.api('GET', `/api/runs/${second.id}`)).body.run.status).toBe('queued');

    expect((await t.api('POST', `/api/runs/${second.id}/cancel`)).body.run.status).toBe('cancelled');
    expect((await t.api('POST', `/api/runs/${first.id}/cancel`)).status).toBe(202);
    expect(await settled(first.id)).toMatchObject({ status: 'cancelled', error: 'Cancelled.' });
    expect(() => execFileSync('pgrep', ['-f', 'sleep 42.5'])).toThrow();
    expect((await t.api('POST', '/api/runs/run_nope/cancel')).status).toBe(404);
  });

  it('runs one run per instance at a time, in order', async () => {
    const instance = await instanceWith({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'sleep 0.3; cat'] });
    const { automation } = (await t.api('POST', '/api/automations', { name: 'o', prompt: 'p', cronExpression: '@yearly', instanceId: instance.id })).body;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    const runs = [];
    for (const id of ids) runs.push(await settled(id));
    for (let i = 1; i < runs.length; i++) expect(Date.parse(runs[i].startedAt!)).toBeGreaterThanOrEqual(Date.parse(runs[i - 1].finishedAt!));
  });
});

describe('a full queue', () => {
  it('answers new triggers 503 queue_full with Retry-After, and drops nothing it accepted', async () => {
    await t.api('PATCH', '/api/settings', { runner: { maxQueued: 2 } });
    const slow = await instanceWith({ provider: 'command', preset: 'custom', command: 'sleep', args: ['44.5'] });
    const { webhook } = (await t.api('POST', '/api/webhooks', { name: 'busy', promptTemplate: '{{payload}}', instanceId: slow.id })).body;
    const fire = () => request(webhook.triggerUrl, { method: 'POST', body: 'x' });
    const accepted: string[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fire();
      expect(response.status, `trigger ${i + 1}`).toBe(202);
      accepted.push(response.body.run.id);
      // The first leaves the queue for the instance: three wait after it, one more than allowed.
      if (i === 0) await waitFor(async () => (await t.api('GET', `/api/runs/${accepted[0]}`)).body.run.status === 'running', { what: 'the first run to start' });
    }
    const refused = await fire();
    expect(refused.status).toBe(503);
    expect(refused.body.error.code).toBe('queue_full');
    expect(refused.headers.get('retry-after')).toBe('30');
    const runs = (await t.api('GET', `/api/runs?sourceId=${webhook.id}`)).body.runs as Run[];
    expect(runs.map((run) => run.id).sort()).toEqual([...accepted].sort());
    await t.api('PATCH', '/api/settings', { runner: { maxQueued: 1000 } });
    for (const id of accepted) await t.api('POST', `/api/runs/${id}/cancel`);
  });
});
