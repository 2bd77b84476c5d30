// @vitest-environment jsdom
// The Approval section of the automation and webhook editors and the Permissions section of the
// instance form, on a real core: values saved in the contract's shape and shown back when edited,
// a wait out of range marked beside its field with nothing saved, how each agent asks, and an agent
// that cannot ask: why, ask not offered, and the API's 400 shown in the section.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import { timeoutDraftOf, timeoutSeconds } from '../../src/renderer/src/features/approvals/timeout-draft';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });
const errorOf = (field: HTMLElement) => field.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)!).find((note) => note?.getAttribute('role') === 'alert')?.textContent;

describe('a wait in minutes or hours', () => {
  it('reads whole hours as hours, else minutes, and refuses what the contract would', () => {
    expect(timeoutDraftOf(3600)).toEqual({ amount: '1', unit: 'hours' });
    expect(timeoutDraftOf(600)).toEqual({ amount: '10', unit: 'minutes' });
    expect(timeoutDraftOf(90)).toEqual({ amount: '1.5', unit: 'minutes' });
    expect(timeoutSeconds({ amount: '1.5', unit: 'hours' })).toEqual({ ok: true, seconds: 5400 });
    for (const amount of ['0', '', 'ten', '-1']) expect(timeoutSeconds({ amount, unit: 'minutes' }).ok).toBe(false);
    expect(timeoutSeconds({ amount: '169', unit: 'hours' }).ok).toBe(false);
    expect(timeoutSeconds({ amount: '168', unit: 'hours' })).toEqual({ ok: true, seconds: 604_800 });
  });
});

describe('the Approval section', () => {
  it('in the automation editor: before each run, 2 hours, saved and shown back; back to none', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
    const form = within(screen.getByRole('form', { name: 'New automation' }));
    type(form.getByLabelText('Name'), 'Deploy nightly');
    type(form.getByLabelText('Prompt'), 'Deploy.');
    type(form.getByLabelText('Schedule (cron)'), '0 3 * * *');
    const section = within(form.getByRole('group', { name: 'Approval' }));
    expect(section.getByRole<HTMLInputElement>('radio', { name: 'Start at once' }).checked).toBe(true);
    expect(section.queryByLabelText('Wait at most')).toBeNull();
    fireEvent.click(section.getByRole('radio', { name: /^Wait for a person/ }));
    type(section.getByLabelText('Wait at most'), '200');
    type(section.getByLabelText('Wait at most: unit'), 'hours');
    fireEvent.click(form.getByRole('button', { name: 'Create automation' }));
    expect(errorOf(section.getByLabelText('Wait at most'))).toBe('The wait must be a number from 1 minute to 168 hours (7 days).');
    expect((await t.api('GET', '/api/automations')).body.automations).toEqual([]);

    type(section.getByLabelText('Wait at most'), '2');
    fireEvent.click(form.getByRole('button', { name: 'Create automation' }));
    const card = await screen.findByRole('article', { name: 'Deploy nightly' });
    const [saved] = (await t.api('GET', '/api/automations')).body.automations;
    expect(saved.approval).toEqual({ mode: 'before-run', timeoutSeconds: 7200 });

    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const edit = within(screen.getByRole('form', { name: 'Edit Deploy nightly' }));
    expect(edit.getByRole<HTMLInputElement>('radio', { name: /^Wait for a person/ }).checked).toBe(true);
    expect(edit.getByLabelText<HTMLInputElement>('Wait at most').value).toBe('2');
    expect(edit.getByLabelText<HTMLSelectElement>('Wait at most: unit').value).toBe('hours');
    fireEvent.click(edit.getByRole('radio', { name: 'Start at once' }));
    fireEvent.click(edit.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Deploy nightly' })).toBeNull());
    expect((await t.api('GET', `/api/automations/${saved.id}`)).body.automation.approval).toEqual({ mode: 'none', timeoutSeconds: 7200 });
    disconnect();
  });

  it('in the webhook editor: before each run, 30 minutes, saved and shown back', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
    renderWith(store, <Webhooks />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
    const form = within(screen.getByRole('form', { name: 'New webhook' }));
    type(form.getByLabelText('Name'), 'Refunds');
    const section = within(form.getByRole('group', { name: 'Approval' }));
    fireEvent.click(section.getByRole('radio', { name: /^Wait for a person/ }));
    type(section.getByLabelText('Wait at most'), '30');
    type(section.getByLabelText('Wait at most: unit'), 'minutes');
    fireEvent.click(form.getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New webhook' })).toBeNull());
    const [webhook] = (await t.api('GET', '/api/webhooks')).body.webhooks;
    expect(webhook.approval).toEqual({ mode: 'before-run', timeoutSeconds: 1800 });

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = within(screen.getByRole('form', { name: 'Edit Refunds' }));
    expect(edit.getByLabelText<HTMLInputElement>('Wait at most').value).toBe('30');
    expect(edit.getByLabelText<HTMLSelectElement>('Wait at most: unit').value).toBe('minutes');
    disconnect();
  });
});

describe('the Permissions section of the instance form', () => {
  it('says how the agent asks, saves ask with its wait, and shows it back', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Instances />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New instance' })[0]);
    const form = within(screen.getByRole('form', { name: 'New instance' }));
    type(form.getByLabelText('Name'), 'Careful');
    type(form.getByLabelText('Agent'), 'claude-code');
    const section = within(form.getByRole('group', { name: 'Permissions' }));
    expect(section.getByText("It asks through Claude Code's --permission-prompt-tool.")).toBeTruthy();
    expect(section.getByRole<HTMLInputElement>('radio', { name: 'Act without asking' }).checked).toBe(true);
    fireEvent.click(section.getByRole('radio', { name: 'Ask a person before each action' }));
    expect(section.getByLabelText<HTMLInputElement>('Wait for an answer at most').value).toBe('10');
    type(section.getByLabelText('Wait for an answer at most'), '15');
    fireEvent.click(form.getByRole('button', { name: 'Create instance' }));
    const card = within(await screen.findByRole('article', { name: 'Careful' }));
    const created = (await t.api('GET', '/api/instances')).body.instances.find((each: { name: string }) => each.name === 'Careful');
    expect(created.permissions).toEqual({ mode: 'ask', timeoutSeconds: 900 });

    fireEvent.click(card.getByRole('button', { name: 'Edit agent' }));
    const edit = within(card.getByRole('form', { name: 'Agent of Careful' }));
    expect(edit.getByRole<HTMLInputElement>('radio', { name: 'Ask a person before each action' }).checked).toBe(true);
    expect(edit.getByLabelText<HTMLInputElement>('Wait for an answer at most').value).toBe('15');
    expect(edit.getByLabelText<HTMLSelectElement>('Wait for an answer at most: unit').value).toBe('minutes');
    disconnect();
  });

  it('for an agent that cannot ask: says why, does not offer ask, and shows the API’s refusal in the section', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Codexer', agent: { provider: 'command', preset: 'claude-code' }, permissions: { mode: 'ask', timeoutSeconds: 600 } })).body;
    await t.core.services.instances.idle();
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Instances />);
    const card = within(screen.getByRole('article', { name: 'Codexer' }));
    fireEvent.click(card.getByRole('button', { name: 'Edit agent' }));
    const form = within(card.getByRole('form', { name: 'Agent of Codexer' }));
    const section = within(form.getByRole('group', { name: 'Permissions' }));
    // Switched to an agent with no way to ask while ask is chosen: why, and saving is refused by the API.
    type(form.getByLabelText('Agent'), 'codex');
    expect(section.getByTestId('ask-problem').textContent).toMatch(/^The codex agent has no way to ask before it acts/);
    fireEvent.click(form.getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(section.getByRole('alert').textContent).toMatch(/The codex agent has no way to ask before it acts/));
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance.agent.preset).toBe('claude-code');

    // Bypass chosen, ask is no longer offered, and the save goes through.
    fireEvent.click(section.getByRole('radio', { name: 'Act without asking' }));
    expect(section.queryByRole('radio', { name: 'Ask a person before each action' })).toBeNull();
    fireEvent.click(form.getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(card.queryByRole('form', { name: 'Agent of Codexer' })).toBeNull());
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance).toMatchObject({ agent: { preset: 'codex' }, permissions: { mode: 'bypass', timeoutSeconds: 600 } });
    disconnect();
  });
});
