// The daemon killed with SIGKILL mid-run and started again: the run is interrupted, an
// automation's run is queued once more, and nothing that was queued is lost.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Run } from '../../src/shared/contract';
import { tempDir } from '../support/core';
import { cliResult, startDaemon } from '../support/processes';

const dir = tempDir('steward-runner-daemon-');
// A sleep no other process on this machine runs (another suite may run this file at the same time).
const sleep = `sleep 45.${process.pid}`;
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
    for (let i = 0; i < 50 && (await api('GET', `/api/runs/${first.id}`)).run.status !== 'running'; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await api('GET', `/api/runs/${first.id}`)).run.status).toBe('running');
    // Its agent is up, inside its sandbox (a kill before the sandbox exists is the next start's to sweep).
    for (let i = 0; i < 50 && spawnSync('pgrep', ['-f', `^${sleep}$`]).status !== 0; i++) await new Promise((r) => setTimeout(r, 100));

    daemon.process.kill('SIGKILL');
    await new Promise((resolve) => daemon.process.once('exit', resolve));
    // The agent ran sandboxed, so it died with its daemon (bubblewrap's --die-with-parent): no orphan is left.
    for (let i = 0; i < 50 && spawnSync('pgrep', ['-f', `^${sleep}$`]).status === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(spawnSync('pgrep', ['-f', `^${sleep}$`]).status).toBe(1);
    fs.writeFileSync(path.join(instance.workspaceDir, 'go'), '');

    daemon = await startDaemon(dir);
    const settle = async (id: string) => {
      for (let i = 0; i < 100; i++) {
        const { run } = await api('GET', `/api/runs/${id}`);
        if (!['queued', 'running'].includes(run.status)) return run as Run;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`run ${id} did not finish`);
    };
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
    const alive = (what: string) => spawnSync('pgrep', ['-f', `^sleep ${what}[.]${process.pid}$`]).status === 0;
    for (let i = 0; i < 50 && !(alive('46') && alive('47')); i++) await new Promise((r) => setTimeout(r, 100));
    expect([alive('46'), alive('47')]).toEqual([true, true]);

    daemon.process.kill('SIGKILL');
    await new Promise((resolve) => daemon.process.once('exit', resolve));
    // The agent itself: the parent-death signal. Its escapee lives on, parented by init, until Steward starts again.
    for (let i = 0; i < 50 && alive('47'); i++) await new Promise((r) => setTimeout(r, 100));
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
