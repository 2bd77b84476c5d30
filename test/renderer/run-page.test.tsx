// @vitest-environment jsdom
// The run page on a real core: its header (source linked, instance, times, duration, tokens and
// cost from the agent's last line, its session), exactly that run's messages, why a queued run
// waits, cancel, and re-run. A fake Claude Code plays a recorded stream with usage figures.
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { RunView } from '../../src/renderer/src/features/runs/Run';
import { formatDuration } from '../../src/shared/format';
import { parseUsage } from '../../src/renderer/src/features/runs/usage';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/agents');
let t: TestCore;
let bin: string;

beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
  bin = tempDir('steward-run-page-');
  fs.writeFileSync(path.join(bin, 'claude'), `#!/bin/sh\n[ "$1" = "--version" ] && { echo "2.1.3 (Claude Code)"; exit 0; }\nexec "${process.execPath}" "${path.join(fixtures, 'fake-cli.mjs')}" "$@"\n`, { mode: 0o755 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(bin, { recursive: true, force: true });
});
afterEach(cleanup);

const facts = () => {
  const list = document.querySelector('dl[aria-label="About this run"]')!;
  const terms = [...list.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
  return Object.fromEntries(terms) as Record<string, string>;
};

describe('the run page', () => {
  it('shows where the run came from, when, how long, its tokens, cost and session, and only its messages', async () => {
    const agent = { provider: 'command', preset: 'claude-code', env: { PATH: `${bin}:${process.env.PATH}`, IS_SANDBOX: '1', FAKE_CLI_FIXTURE: path.join(fixtures, 'claude-code.jsonl') } };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Claude', agent })).body;
    await t.core.services.instances.idle();
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Log check', prompt: 'CI failed on main', cronExpression: '@yearly', instanceId: instance.id, memory: 'continue' })).body;
    // Two runs in the automation's thread, the second resuming the first's session: the page shows the second one's messages only.
    await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    const run = await settled(t, (await t.api('POST', `/api/automations/${automation.id}/run`)).body.run.id);
    expect(run.status).toBe('succeeded');

    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <RunView id={run.id} />);
    const transcript = await screen.findByRole('log', { name: 'Transcript' });
    await waitFor(() => expect(transcript.textContent).toContain('One test fails in test/api.test.ts.'));
    expect(transcript.querySelectorAll('[data-role="user"]')).toHaveLength(1);
    // The tool call and its result, collapsed into one line.
    expect(within(transcript).getByText(/2 tool steps/)).toBeTruthy();

    const about = within(document.querySelector<HTMLElement>('dl[aria-label="About this run"]')!);
    expect(about.getByRole('link', { name: 'Log check' }).getAttribute('href')).toBe('#/automations');
    expect(about.getByRole('link', { name: 'Claude' }).getAttribute('href')).toBe(`#/chat/${instance.id}`);
    await waitFor(() => expect(facts().Tokens).toBe('1,234 in · 567 out'));
    expect(facts()).toMatchObject({ Source: 'Log check (automation, run by hand)', Instance: 'Claude', Cost: '$0.0123' });
    expect(facts().Session).toContain('9d7c2a1e-0b4f-4c36-9d0e-5f1c7e3b2a10');
    expect(facts().Session).toContain('continued this session');
    expect(facts().Duration).toMatch(/^\d+(\.\d)? (ms|s)$/);
    expect(facts().Finished).not.toBe('—');
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();

    // Re-run: the automation runs again, and the page moves to the new run.
    fireEvent.click(screen.getByRole('button', { name: 'Re-run' }));
    await waitFor(() => expect(window.location.hash).toMatch(/^#\/runs\/run_/));
    const rerunId = window.location.hash.slice('#/runs/'.length);
    expect(rerunId).not.toBe(run.id);
    expect((await settled(t, rerunId)).prompt).toBe('CI failed on main');
    disconnect();
  });

  it('says why a queued run waits, and cancels it', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Parked', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body;
    await t.core.services.instances.idle();
    await t.api('POST', `/api/instances/${instance.id}/stop`);
    const { run } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'are you there?' })).body;
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <RunView id={run.id} />);
    const waiting = await screen.findByRole('status');
    expect(waiting.textContent).toContain('Parked is stopped: the run waits until it is started again.');
    expect(within(waiting).getByRole('link', { name: 'Start it on Instances' })).toBeTruthy();
    expect(screen.getByText('are you there?')).toBeTruthy();
    expect(facts()).toMatchObject({ Source: 'API (a prompt sent through the API)', Started: '—', Duration: '—' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.getByText('cancelled')).toBeTruthy());
    expect(screen.queryByRole('status')).toBeNull();
    disconnect();
  });
});

describe('a run an agent started', () => {
  it("links the run whose agent started it, and says how deep the chain is", async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'sleep', args: ['600'] };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Manager', agent })).body;
    const { run: parent } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'manage' })).body;
    const key = t.core.services.apiKeys.createForRun(parent);
    const { run: child } = (await t.api('POST', '/api/runs', { instanceId: instance.id, prompt: 'a job for later' }, { authorization: `Bearer ${key}` })).body;
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <RunView id={child.id} />);
    await waitFor(() => expect(facts()['Started by']).toBe('the agent of another run (1 deep in a chain of runs)'));
    const about = within(document.querySelector<HTMLElement>('dl[aria-label="About this run"]')!);
    expect(about.getByRole('link', { name: 'the agent of another run' }).getAttribute('href')).toBe(`#/runs/${parent.id}`);
    disconnect();
    await t.api('POST', `/api/runs/${child.id}/cancel`);
    await t.api('POST', `/api/runs/${parent.id}/cancel`);
  });
});

describe('figures', () => {
  it('durations and usage lines read as people write them', () => {
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(12_345)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(parseUsage('Codex finished — 1,200 tokens in, 30 out')).toEqual({ inputTokens: 1200, outputTokens: 30 });
    expect(parseUsage('goose finished — 5,000 tokens')).toEqual({ totalTokens: 5000 });
    expect(parseUsage('Run succeeded after 1.2 s')).toBeUndefined();
  });
});
