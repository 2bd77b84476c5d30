// The daemon killed with SIGKILL mid-run and started again: the run is interrupted, an
// automation's run is queued once more, and nothing that was queued is lost.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';
import { waitFor } from '../support/wait';

const dir = tempDir('steward-runner-daemon-');
// A sleep no other process on this machine runs (another suite may run this file at the same time).
const sleep = `sleep 45.${process.pid}`;
/** The pids of the processes whose whole command line matches `pattern` (pgrep -f). */
const pidsOf = (pattern: string) => spawnSync('pgrep', ['-f', pattern], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

afterAll(() => {
  try {
    execFileSync('pkill', ['-f', sleep]);
  } catch {
    // nothing left
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the daemon killed mid-run', () => {
  it('marks the run interrupted, queues the automation once more, and loses nothing queued', async () => {
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', dir]).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let daemon = await startDaemon(dir);
    const api = async (method: string, route: string, body?: unknown) =>
      (await fetch(`${daemon.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>;

    // Sleeps until the workspace holds a file saying otherwise, then echoes its prompt.
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `while [ ! -f go ]; do ${sleep} & wait $!; done; cat`] };
    const { instance } = await api('POST', '/api/instances', { name: 'sleepy', agent });
    const { automation } = await api('POST', '/api/automations', { name: 'nightly', prompt: 'do the nightly job', cronExpression: '@yearly', instanceId: instance.id });
    const { webhook } = await api('POST', '/api/webhooks', { name: 'hook', promptTemplate: 'hook: {{payload}}', instanceId: instance.id });
    const first = (await api('POST', `/api/automations/${automation.id}/run`)).run as Run;
    const queued = ((await (await fetch(webhook.triggerUrl, { method: 'POST', body: 'queued one' })).json()) as { run: Run }).run;
    await waitFor(async () => (await api('GET', `/api/runs/${first.id}`)).run.status === 'running', { what: 'the first run to start' });
    // Its agent is up, inside its sandbox (a kill before the sandbox exists is the next start's to sweep):
    // its sleep is seen before the kill, or the check below that none is left would prove nothing.
    const agentSleep = await waitFor(() => pidsOf(`^${sleep}$`), { what: `${sleep} to start`, until: (pids) => pids.length > 0 });

    daemon.process.kill('SIGKILL');
    await new Promise((resolve) => daemon.process.once('exit', resolve));
    // The agent ran sandboxed, so it died with its daemon (bubblewrap's --die-with-parent): no orphan is left.
    await waitFor(() => pidsOf(`^${sleep}$`), { what: `${sleep} (pid ${agentSleep[0]}) to end with its daemon`, timeoutMs: 5_000, until: (pids) => pids.length === 0 });
    fs.writeFileSync(path.join(instance.workspaceDir, 'go'), '');

    daemon = await startDaemon(dir);
    const settle = (id: string) => waitFor(async () => (await api('GET', `/api/runs/${id}`)).run as Run, { what: `run ${id} to end`, until: (run) => !['queued', 'running'].includes(run.status) });
    expect(await api('GET', `/api/runs/${first.id}`)).toMatchObject({ run: { status: 'interrupted', error: 'Steward stopped while this run was running.' } });
    expect(await settle(queued.id)).toMatchObject({ status: 'succeeded', prompt: 'hook: queued one' });
    const automationRuns = (await api('GET', `/api/runs?sourceId=${automation.id}`)).runs as Run[];
    expect(automationRuns).toHaveLength(2);
    const retried = automationRuns.find((run) => run.id !== first.id)!;
    expect(await settle(retried.id)).toMatchObject({ status: 'succeeded', prompt: 'do the nightly job' });
    const thread = (await api('GET', `/api/threads/${webhook.threadId}`)).thread;
    expect(thread.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'hook: queued one'],
      ['assistant', 'hook: queued one'],
    ]);
    await daemon.stop();
  }, 60_000);

  it('outside a sandbox too, leaves nothing running: the agent dies with the daemon, and what it started in a session of its own is ended at the next start', async () => {
    const own = tempDir('steward-runner-daemon-open-');
    const key = cliResult(['keys', 'create', '--name', 'ci', '--data-dir', own]).stdout.trim().split('\n').at(-1)!;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    let daemon = await startDaemon(own);
    const api = async (method: string, route: string, body?: unknown) =>
      (await fetch(`${daemon.url}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<any>;
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', `setsid sleep 46.${process.pid} & exec sleep 47.${process.pid}`] };
    const { instance } = await api('POST', '/api/instances', { name: 'open', agent, sandbox: { mode: 'off' } });
    const { run } = await api('POST', '/api/runs', { instanceId: instance.id, prompt: 'wait' });
    const alive = (what: string) => pidsOf(`^sleep ${what}[.]${process.pid}$`).length > 0;
    await waitFor(() => alive('46') && alive('47'), { what: 'both sleeps to start' });

    daemon.process.kill('SIGKILL');
    await new Promise((resolve) => daemon.process.once('exit', resolve));
    // The agent itself: the parent-death signal. Its escapee lives on, parented by init, until Steward starts again.
    await waitFor(() => !alive('47'), { what: 'the agent to die with its daemon', timeoutMs: 5_000 });
    expect([alive('46'), alive('47')]).toEqual([true, false]);

    daemon = await startDaemon(own);
    try {
      expect(alive('46')).toBe(false);
      expect(await api('GET', `/api/runs/${run.id}`)).toMatchObject({ run: { status: 'interrupted' } });
    } finally {
      await daemon.stop();
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 60_000);
});
