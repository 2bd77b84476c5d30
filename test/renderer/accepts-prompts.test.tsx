// @vitest-environment jsdom
// "Accepts prompts from" in the agent form, on a real core: a new instance made to accept another's
// prompts, the sender marked as refused while the form's sandbox is less confined than the sender's
// (off here, sandboxed there), and the list edited through "Edit agent" (the whole list sent again).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
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

const stored = async (name: string): Promise<Instance> => ((await t.api('GET', '/api/instances')).body.instances as Instance[]).find((each) => each.name === name)!;

describe('Accepts prompts from', () => {
  it('ticks the instances whose runs may prompt this one, and says when the sandbox would refuse one', async () => {
    const manager = (await t.api('POST', '/api/instances', { name: 'Manager', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance as Instance;
    await t.core.services.instances.idle();
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadSettings()]);
    renderWith(store, <Instances />);
    fireEvent.click(screen.getByRole('button', { name: 'New instance' }));
    const form = screen.getByRole('form', { name: 'New instance' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Helper' } });
    fireEvent.change(within(form).getByLabelText('Agent'), { target: { value: 'custom' } });
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: 'cat' } });
    const senders = within(within(form).getByRole('group', { name: 'Accepts prompts from' }));
    fireEvent.click(senders.getByRole('checkbox', { name: 'Manager' }));
    expect(senders.queryByRole('status')).toBeNull();
    // Off while the manager is sandboxed: its runs would be refused, and the form says why.
    fireEvent.click(within(form).getByRole('radio', { name: /^Off: / }));
    expect(senders.getByRole('status').textContent).toBe('Manager’s runs will be refused while this instance is less confined: it is not sandboxed, and the sender is.');
    fireEvent.click(within(form).getByRole('radio', { name: /^Sandboxed/ }));
    expect(senders.queryByRole('status')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Create instance' }));

    const card = await screen.findByRole('article', { name: 'Helper' });
    expect((await stored('Helper')).acceptsPromptsFrom).toEqual([manager.id]);

    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const editor = within(card).getByRole('form', { name: 'Agent of Helper' });
    const again = within(within(editor).getByRole('group', { name: 'Accepts prompts from' }));
    // The instance itself is not offered: its own runs always reach it.
    expect(again.queryByRole('checkbox', { name: 'Helper' })).toBeNull();
    expect(again.getByRole<HTMLInputElement>('checkbox', { name: 'Manager' }).checked).toBe(true);
    fireEvent.click(again.getByRole('checkbox', { name: 'Manager' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(within(card).queryByRole('form', { name: 'Agent of Helper' })).toBeNull());
    expect((await stored('Helper')).acceptsPromptsFrom).toEqual([]);
    disconnect();
  });
});
