// @vitest-environment jsdom
// The Retry, Budget and When sections on a real core: an automation made to run after another with
// retries and a budget (stored in the contract's shape, shown back when edited, switched back to a
// schedule), refused input marked beside its field with nothing saved, the same Retry section in the
// webhook editor and the same Budget section in the instance form, and the line saying whether the
// chosen instance's agent reports cost.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import type { Automation } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock });
});
afterAll(() => t.close());
afterEach(cleanup);

const automationNamed = async (name: string): Promise<Automation | undefined> => ((await t.api('GET', '/api/automations')).body.automations as Automation[]).find((each) => each.name === name);
const errorOf = (field: HTMLElement) => field.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)!).find((note) => note.getAttribute('role') === 'alert')?.textContent;
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

describe('the automation editor', () => {
  it('makes an automation that runs after another, with retries and a budget, and shows them back', async () => {
    const { automation: collect } = (await t.api('POST', '/api/automations', { name: 'Collect', prompt: 'Collect the logs.', cronExpression: '0 6 * * *' })).body;
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
    const form = within(screen.getByRole('form', { name: 'New automation' }));
    type(form.getByLabelText('Name'), 'Summarise');
    type(form.getByLabelText('Prompt'), 'Summarise {{previous.output}}');
    fireEvent.click(form.getByRole('radio', { name: 'After another automation' }));
    expect(form.queryByLabelText('Schedule (cron)')).toBeNull();
    expect(form.getByTestId('previous-fields').textContent).toMatch(/\{\{previous\.output\}\}.*\{\{previous\.status\}\}.*\{\{previous\.runId\}\}.*\{\{previous\.summary\}\}/);
    type(form.getByLabelText('After automation'), collect.id);
    fireEvent.click(form.getByRole('checkbox', { name: 'failed' }));

    const retry = within(form.getByRole('group', { name: 'Retry' }));
    type(retry.getByLabelText('Retries after a failure'), '3');
    type(retry.getByLabelText('First wait (seconds)'), '60');
    fireEvent.click(retry.getByRole('checkbox', { name: 'Timed out' }));
    fireEvent.click(retry.getByRole('checkbox', { name: /^The plan's usage limit/ }));
    // A refused key and the agent's own error are there, never selectable.
    for (const never of [/^Key or login refused: never retried/, /^The agent's own error: never retried/]) {
      const box = retry.getByRole<HTMLInputElement>('checkbox', { name: never });
      expect(box.disabled).toBe(true);
      expect(box.checked).toBe(false);
    }
    const budget = within(form.getByRole('group', { name: 'Budget' }));
    type(budget.getByLabelText('US$ a day'), '2.5');
    type(budget.getByLabelText('Tokens a day'), '500000');
    fireEvent.click(form.getByRole('button', { name: 'Create automation' }));

    const card = await screen.findByRole('article', { name: 'Summarise' });
    expect(card.textContent).toContain('after Collect (succeeded, failed)');
    expect(await automationNamed('Summarise')).toMatchObject({
      cronExpression: null,
      trigger: { after: { automationId: collect.id, on: ['succeeded', 'failed'] } },
      retry: { attempts: 3, backoffSeconds: 60, on: ['rate_limit', 'overloaded', 'network', 'usage_limit'] },
      budget: { usdPerDay: 2.5, tokensPerDay: 500_000 },
    });

    // Edited: the saved values are shown back; the day's limit emptied (no limit), and back on a schedule.
    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const edit = within(screen.getByRole('form', { name: 'Edit Summarise' }));
    expect(edit.getByRole<HTMLInputElement>('radio', { name: 'After another automation' }).checked).toBe(true);
    expect(edit.getByLabelText<HTMLSelectElement>('After automation').value).toBe(collect.id);
    expect(edit.getByLabelText<HTMLInputElement>('Retries after a failure').value).toBe('3');
    expect(edit.getByRole<HTMLInputElement>('checkbox', { name: 'Timed out' }).checked).toBe(false);
    expect(edit.getByLabelText<HTMLInputElement>('US$ a day').value).toBe('2.5');
    expect(edit.getByLabelText<HTMLInputElement>('US$ a run').value).toBe('');
    type(edit.getByLabelText('US$ a day'), '');
    fireEvent.click(edit.getByRole('radio', { name: 'On a schedule' }));
    type(edit.getByLabelText('Schedule (cron)'), '0 8 * * *');
    fireEvent.click(edit.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Summarise' })).toBeNull());
    expect(await automationNamed('Summarise')).toMatchObject({ cronExpression: '0 8 * * *', trigger: null, budget: { tokensPerDay: 500_000 } });
    expect((await automationNamed('Summarise'))!.budget).toEqual({ tokensPerDay: 500_000 });
    disconnect();
  });

  it('marks refused retries, budgets and a missing predecessor beside their fields, and saves nothing', async () => {
    await t.api('POST', '/api/automations', { name: 'Steady', prompt: 'Check.', cronExpression: '0 7 * * *', retry: { attempts: 1, backoffSeconds: 30 } });
    const before = await automationNamed('Steady');
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(within(screen.getByRole('article', { name: 'Steady' })).getByRole('button', { name: 'Edit' }));
    const form = within(screen.getByRole('form', { name: 'Edit Steady' }));
    const attempts = form.getByLabelText('Retries after a failure');
    type(attempts, '7');
    const wait = form.getByLabelText('First wait (seconds)');
    type(wait, '0');
    const perRun = form.getByLabelText('US$ a run');
    type(perRun, '-1');
    const tokens = form.getByLabelText('Tokens a day');
    type(tokens, '12.5');
    fireEvent.click(form.getByRole('radio', { name: 'After another automation' }));
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    expect(attempts.getAttribute('aria-invalid')).toBe('true');
    expect(errorOf(attempts)).toBe('Retries must be a whole number from 0 to 5.');
    expect(errorOf(wait)).toBe('The first wait must be a whole number of seconds from 1 to 86400 (a day).');
    expect(errorOf(perRun)).toBe('A dollar amount above 0 (such as 2.50), or empty for no limit.');
    expect(errorOf(tokens)).toBe('Tokens must be a whole number above 0, or empty for no limit.');
    expect(errorOf(form.getByLabelText('After automation'))).toBe('Choose the automation it runs after.');
    expect(await automationNamed('Steady')).toEqual(before);

    // No kind of failure ticked while retrying is refused too; fixed, the save goes through.
    type(attempts, '2');
    type(wait, '45');
    type(perRun, '0.5');
    type(tokens, '');
    fireEvent.click(form.getByRole('radio', { name: 'On a schedule' }));
    for (const name of ['Rate limited (HTTP 429)', 'Service overloaded (HTTP 529 or 503)', 'Network failure', 'Timed out']) fireEvent.click(form.getByRole('checkbox', { name }));
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    expect(within(form.getByRole('group', { name: 'Retry when it failed because of' })).getByRole('alert').textContent).toBe('Tick at least one kind of failure to retry, or set retries to 0.');
    expect(await automationNamed('Steady')).toEqual(before);
    fireEvent.click(form.getByRole('checkbox', { name: 'Network failure' }));
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Steady' })).toBeNull());
    expect(await automationNamed('Steady')).toMatchObject({ retry: { attempts: 2, backoffSeconds: 45, on: ['network'] }, budget: { usdPerRun: 0.5 } });
    disconnect();
  });

  it('says whether the chosen instance’s agent reports cost', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Tokens only', agent: { provider: 'command', preset: 'codex' } })).body;
    const { instance: claude } = (await t.api('POST', '/api/instances', { name: 'Claude', agent: { provider: 'command', preset: 'claude-code' } })).body;
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
    const form = within(screen.getByRole('form', { name: 'New automation' }));
    type(form.getByLabelText('Instance'), instance.id);
    expect(form.getByTestId('cost-note').textContent).toBe('codex reports no cost, only tokens: its runs count toward the token limit only.');
    type(form.getByLabelText('Instance'), claude.id);
    expect(form.getByTestId('cost-note').textContent).toBe('claude-code reports what each run costs: the dollar limits apply.');
    disconnect();
  });
});

describe('the Retry section of the webhook editor', () => {
  it('saves the retry policy and shows it back', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadWebhooks()]);
    renderWith(store, <Webhooks />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
    const form = within(screen.getByRole('form', { name: 'New webhook' }));
    type(form.getByLabelText('Name'), 'Deploys');
    const retry = within(form.getByRole('group', { name: 'Retry' }));
    type(retry.getByLabelText('Retries after a failure'), '9');
    fireEvent.click(form.getByRole('button', { name: 'Create webhook' }));
    expect(errorOf(retry.getByLabelText('Retries after a failure'))).toBe('Retries must be a whole number from 0 to 5.');
    expect((await t.api('GET', '/api/webhooks')).body.webhooks).toEqual([]);

    type(retry.getByLabelText('Retries after a failure'), '2');
    type(retry.getByLabelText('First wait (seconds)'), '120');
    fireEvent.click(retry.getByRole('checkbox', { name: 'Rate limited (HTTP 429)' }));
    fireEvent.click(form.getByRole('button', { name: 'Create webhook' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New webhook' })).toBeNull());
    const [webhook] = (await t.api('GET', '/api/webhooks')).body.webhooks;
    expect(webhook.retry).toEqual({ attempts: 2, backoffSeconds: 120, on: ['overloaded', 'network', 'timeout'] });

    fireEvent.click(screen.getByRole('button', { name: 'Edit' }));
    const edit = within(screen.getByRole('form', { name: 'Edit Deploys' }));
    expect(edit.getByLabelText<HTMLInputElement>('Retries after a failure').value).toBe('2');
    expect(edit.getByLabelText<HTMLInputElement>('First wait (seconds)').value).toBe('120');
    expect(edit.getByRole<HTMLInputElement>('checkbox', { name: 'Rate limited (HTTP 429)' }).checked).toBe(false);
    disconnect();
  });
});

describe('the Budget section of the instance form', () => {
  it('saves an instance’s budget, shows it back, and refuses a bad amount beside its field', async () => {
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Metered', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body;
    await t.core.services.instances.idle();
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Instances />);
    const card = within(screen.getByRole('article', { name: 'Metered' }));
    fireEvent.click(card.getByRole('button', { name: 'Edit agent' }));
    const form = within(card.getByRole('form', { name: 'Agent of Metered' }));
    const budget = within(form.getByRole('group', { name: 'Budget' }));
    expect(budget.getByTestId('cost-note').textContent).toBe('A custom command reports no cost, only tokens: its runs count toward the token limit only.');
    type(budget.getByLabelText('US$ a month'), 'forty');
    fireEvent.click(form.getByRole('button', { name: 'Save agent' }));
    expect(errorOf(budget.getByLabelText('US$ a month'))).toBe('A dollar amount above 0 (such as 2.50), or empty for no limit.');
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance.budget).toEqual({});

    type(budget.getByLabelText('US$ a month'), '40');
    type(budget.getByLabelText('US$ a run'), '0.5');
    fireEvent.click(form.getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(card.queryByRole('form', { name: 'Agent of Metered' })).toBeNull());
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance.budget).toEqual({ usdPerMonth: 40, usdPerRun: 0.5 });
    fireEvent.click(card.getByRole('button', { name: 'Edit agent' }));
    expect(card.getByLabelText<HTMLInputElement>('US$ a month').value).toBe('40');
    expect(card.getByLabelText<HTMLInputElement>('US$ a run').value).toBe('0.5');
    disconnect();
  });
});

describe('the notification settings', () => {
  it('notifies only of failures and runs that need attention, and calls an automation failing after the runs in a row chosen', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <Settings />);
    type(await screen.findByLabelText('Notify me when a run finishes'), 'attention');
    await waitFor(async () => expect((await t.api('GET', '/api/settings')).body.settings.notifications.on).toBe('attention'));
    const after = screen.getByLabelText('Call an automation failing after this many failed runs in a row');
    expect((after as HTMLInputElement).value).toBe('3');
    type(after, '0');
    fireEvent.blur(after);
    expect(errorOf(after)).toBe('Enter a whole number from 1 to 100.');
    type(after, '5');
    fireEvent.blur(after);
    await waitFor(async () => expect((await t.api('GET', '/api/settings')).body.settings.notifications.unhealthyAfter).toBe(5));
    disconnect();
  });
});
