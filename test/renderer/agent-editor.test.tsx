// @vitest-environment jsdom
// "Edit agent" on an instance card, on a real core: the same agent form as a new instance, with
// arguments as a list and the command line that will run; the server's refusal next to its field;
// a saved agent is probed again and the card follows live.
import path from 'node:path';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { commandLine, describeAgent, quote } from '../../src/renderer/src/features/instances/AgentFields';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import type { Instance } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });

});
afterAll(() => t.close());
afterEach(cleanup);

describe('Edit agent', () => {
  it('changes the default instance’s agent to a command with arguments; the card shows the probe', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadSettings()]);
    renderWith(store, <Instances />);
    const card = screen.getByRole('article', { name: 'Steward' });
    expect(card.textContent).toContain('Agent: claude-code');
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const form = within(card).getByRole('form', { name: 'Agent of Steward' });
    expect(within(form).getByLabelText<HTMLSelectElement>('Agent').value).toBe('claude-code');
    fireEvent.change(within(form).getByLabelText('Agent'), { target: { value: 'custom' } });
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    // The refusal lands next to the Command field.
    const command = within(form).getByLabelText('Command');
    await waitFor(() => expect(command.getAttribute('aria-invalid')).toBe('true'));

    fireEvent.change(command, { target: { value: 'sh' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(form).getByLabelText('Argument 1'), { target: { value: '-c' } });
    fireEvent.change(within(form).getByLabelText('Argument 2'), { target: { value: 'unused' } });
    fireEvent.change(within(form).getByLabelText('Argument 3'), { target: { value: 'echo "[$1]"' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove argument 2' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(form).getByLabelText('Argument 3'), { target: { value: 'sh' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add argument' }));
    fireEvent.change(within(form).getByLabelText('Argument 4'), { target: { value: '{prompt}' } });
    expect(within(form).getByTestId('command-line').textContent).toBe(`sh -c 'echo "[$1]"' sh {prompt}`);
    expect(form.textContent).toContain('Each {prompt} in the arguments is replaced by the prompt.');
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));

    await waitFor(() => expect(within(card).queryByRole('form', { name: 'Agent of Steward' })).toBeNull());
    await waitFor(() => expect(card.textContent).toContain('custom:sh'));
    expect(card.textContent).toContain(`Agent: custom: sh -c 'echo "[$1]"' sh {prompt}`);
    expect(within(card).getByText('running')).toBeTruthy();
    const steward = (await t.api('GET', '/api/instances')).body.instances.find((each: Instance) => each.isDefault) as Instance;
    expect(steward.agent).toEqual({ provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "[$1]"', 'sh', '{prompt}'] });
    const { run } = (await t.api('POST', '/api/runs', { instanceId: steward.id, prompt: 'hi' })).body;
    await expect.poll(async () => (await t.api('GET', `/api/runs/${run.id}/messages`)).body.messages.map((m: { content: string }) => m.content), { timeout: 10_000 }).toEqual(['hi', '[hi]']);
    disconnect();
  });

  it('keeps env and sets the built-in agent’s server and model', async () => {
    const { store, disconnect } = connectStore(t);
    const instance = await store.getState().createInstance({ name: 'Local', agent: { provider: 'command', preset: 'custom', command: 'cat', env: { A: '1' } } });
    renderWith(store, <Instances />);
    const card = screen.getByRole('article', { name: 'Local' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const form = within(card).getByRole('form', { name: 'Agent of Local' });
    expect(within(form).getByLabelText<HTMLTextAreaElement>('Environment').value).toBe('A=1');
    fireEvent.change(within(form).getByLabelText('Environment'), { target: { value: 'A=1\nIS_SANDBOX=1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(store.getState().instances.find((each) => each.id === instance.id)?.agent).toEqual({ provider: 'command', preset: 'custom', command: 'cat', env: { A: '1', IS_SANDBOX: '1' } }), { timeout: 10_000 });
    // The live event can bring the change before the save's answer closes the form.
    await waitFor(() => expect(within(card).queryByRole('form', { name: 'Agent of Local' })).toBeNull());

    // Steward's tools: off for a custom command until asked for, on for a preset until turned off.
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const tools = within(card).getByRole('form', { name: 'Agent of Local' });
    const toolsSwitch = () => within(tools).getByLabelText<HTMLInputElement>(/Steward’s tools/);
    expect(toolsSwitch().checked).toBe(false);
    fireEvent.change(within(tools).getByLabelText('Agent'), { target: { value: 'codex' } });
    expect(toolsSwitch().checked).toBe(true);
    fireEvent.click(toolsSwitch());
    fireEvent.click(within(tools).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(store.getState().instances.find((each) => each.id === instance.id)?.agent).toEqual({ provider: 'command', preset: 'codex', stewardTools: false }), { timeout: 10_000 });
    await waitFor(() => expect(within(card).queryByRole('form', { name: 'Agent of Local' })).toBeNull());

    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const again = within(card).getByRole('form', { name: 'Agent of Local' });
    fireEvent.change(within(again).getByLabelText('Agent'), { target: { value: 'openai' } });
    fireEvent.change(within(again).getByLabelText('Base URL'), { target: { value: 'http://127.0.0.1:9/v1' } });
    fireEvent.change(within(again).getByLabelText('Model'), { target: { value: 'qwen3:8b' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(card.textContent).toContain('qwen3:8b at http://127.0.0.1:9/v1'), { timeout: 10_000 });
    await waitFor(() => expect(card.textContent).toContain('Could not reach the model server'), { timeout: 10_000 });
    disconnect();
  });

  it('makes an instance’s agent an ACP agent: its command and arguments, probed with initialize', async () => {
    const scripted = path.resolve(import.meta.dirname, '../fixtures/agents/acp-agent.mjs');
    const { store, disconnect } = connectStore(t);
    const instance = await store.getState().createInstance({ name: 'Acp', agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: { mode: 'off' } });
    renderWith(store, <Instances />);
    const card = screen.getByRole('article', { name: 'Acp' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const form = within(card).getByRole('form', { name: 'Agent of Acp' });
    fireEvent.change(within(form).getByLabelText('Agent'), { target: { value: 'acp' } });
    expect(within(form).getByLabelText<HTMLInputElement>('Command').value).toBe('gemini');
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: process.execPath } });
    fireEvent.change(within(form).getByLabelText('Argument 1'), { target: { value: scripted } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(card.textContent).toContain('acp:scripted-acp 1.2.3 · loads sessions · host'), { timeout: 10_000 });
    expect(card.textContent).toContain(`Agent: ACP: ${process.execPath} ${scripted}`);
    expect(store.getState().instances.find((each) => each.id === instance.id)?.agent).toEqual({ provider: 'acp', command: process.execPath, args: [scripted] });
    disconnect();
  });
});

describe('command lines', () => {
  it('quote what a shell would need quoted', () => {
    expect(quote('-c')).toBe('-c');
    expect(quote("it's")).toBe(`'it'\\''s'`);
    expect(commandLine({ provider: 'command', preset: 'custom', command: 'my agent', args: ['--flag', 'a b'] })).toBe(`'my agent' --flag 'a b'`);
    expect(describeAgent({ provider: 'command', preset: 'codex', args: ['--model', 'o4'] })).toBe('codex --model o4');
  });
});
