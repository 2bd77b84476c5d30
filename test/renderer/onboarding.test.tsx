// @vitest-environment jsdom
// The first start on a real core: the onboarding card lists the agents found on PATH (a fake codex
// here, claude missing), a custom command with arguments becomes the default instance's agent (the
// command line shown as it will run), and the first prompt is answered inline. Once a run has
// succeeded, the card is gone.
import fs from 'node:fs';
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Activity } from '../../src/renderer/src/features/activity/Activity';
import { firstChoice } from '../../src/renderer/src/features/onboarding/Onboarding';
import type { AgentDetection, Instance } from '../../src/shared/contract';
import { type TestCore, startTestCore, tempDir } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
let bin: string;
const originalPath = process.env.PATH;

beforeAll(async () => {
  // The daemon's PATH: a codex that answers --version, and sh and cat for the custom command.
  bin = tempDir('steward-onboarding-');
  fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n[ "$1" = "--version" ] && echo "codex-cli 0.169.0"\n', { mode: 0o755 });
  for (const tool of ['sh', 'cat']) fs.symlinkSync(fs.realpathSync(`/bin/${tool}`), path.join(bin, tool));
  process.env.PATH = bin;
  t = await startTestCore({ clock: systemClock });
});
afterAll(async () => {
  process.env.PATH = originalPath;
  await t.close();
  fs.rmSync(bin, { recursive: true, force: true });
});
afterEach(cleanup);

describe('the onboarding card', () => {
  it('shows the agents found, makes a custom command the default agent, and answers a first prompt inline', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Activity />);
    const card = await screen.findByRole('region', { name: 'Welcome to Steward' });
    const found = await within(card).findByRole('list', { name: 'Agents on this machine' });
    await waitFor(() => expect(found.textContent).toContain('Codex found — 0.169.0'));
    expect(found.textContent).toContain('claude is not on PATH');
    expect(found.textContent).toMatch(/OpenAI-compatible server http:\/\/127\.0\.0\.1:11434\/v1 (does not answer|answers)/);
    // What was found is offered first.
    await waitFor(() => expect(within(card).getByRole<HTMLInputElement>('radio', { name: 'Codex 0.169.0' }).checked).toBe(true));

    const form = within(card).getByRole('form', { name: 'Agent of Steward' });
    fireEvent.click(within(form).getByRole('radio', { name: 'Any command' }));
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: 'sh' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(form).getByLabelText('Argument 1'), { target: { value: '-c' } });
    fireEvent.change(within(form).getByLabelText('Argument 2'), { target: { value: 'echo "you said: $(cat)"' } });
    expect(within(form).getByTestId('command-line').textContent).toBe(`sh -c 'echo "you said: $(cat)"'`);
    expect(form.textContent).toContain('The prompt goes to its stdin.');
    fireEvent.click(within(form).getByRole('button', { name: 'Use this agent' }));
    const status = within(card).getByRole('status', { name: 'Steward status' });
    await waitFor(() => expect(status.textContent).toMatch(/^Ready: custom:sh · sandbox \(bubblewrap /));
    const steward = ((await t.api('GET', '/api/instances')).body.instances as Instance[]).find((each) => each.isDefault)!;
    expect(steward.agent).toEqual({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "you said: $(cat)"'] });
    expect((await t.api('GET', '/api/settings')).body.settings.defaultAgent).toEqual(steward.agent);

    const composer = within(card).getByLabelText('First prompt');
    fireEvent.change(composer, { target: { value: 'hello there' } });
    fireEvent.keyDown(composer, { key: 'Enter' });
    const answer = await within(card).findByRole('log', { name: 'First answer' });
    await waitFor(() => expect(answer.textContent).toContain('you said: hello there'), { timeout: 10_000 });
    await waitFor(() => expect(within(card).getByText('It works.')).toBeTruthy());
    expect(within(card).getByRole('link', { name: 'Continue this chat' }).getAttribute('href')).toMatch(new RegExp(`^#/chat/${steward.id}/thr_`));
    // The run succeeded, but the card stays until the user is done with it.
    fireEvent.click(within(card).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Welcome to Steward' })).toBeNull());
    disconnect();
  });

  it('is not shown once a run has succeeded', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Activity />);
    await waitFor(() => expect(store.getState().everSucceeded).toBe(true));
    expect(screen.queryByRole('region', { name: 'Welcome to Steward' })).toBeNull();
    disconnect();
  });
});

describe('the first choice offered', () => {
  const detection = (found: string[], reachable: boolean, problem: string | null = null): AgentDetection => ({
    agents: (['claude-code', 'codex', 'gemini', 'goose', 'opencode'] as const).map((preset) => ({ preset, command: preset, found: found.includes(preset), path: null, version: null, problem: found.includes(preset) ? problem : null })),
    openai: { baseUrl: 'http://127.0.0.1:11434/v1', reachable, models: reachable ? ['qwen3:8b'] : [], error: null },
  });
  it('is a CLI that can run, else a model server that answers, else a command', () => {
    expect(firstChoice(detection(['gemini', 'opencode'], true))).toBe('preset:gemini');
    expect(firstChoice(detection(['claude-code'], true, 'needs IS_SANDBOX=1'))).toBe('openai');
    expect(firstChoice(detection([], false))).toBe('custom');
  });
});
