// @vitest-environment jsdom
// Components with Testing Library, on a real core: the cron helper, the automation form showing
// the server's error next to its field, the webhook template warning, and the activity filters.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { render } from '@testing-library/react';
import { CronHelper, cronExpressionProblem } from '../../src/renderer/src/features/automations/CronHelper';
import { filterActivity, noFilters } from '../../src/renderer/src/features/activity/Activity';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { Webhooks } from '../../src/renderer/src/features/webhooks/Webhooks';
import { App } from '../../src/renderer/src/App';
import type { ActivityEvent } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());
afterEach(cleanup);

describe('the cron helper', () => {
  it('describes the expression and lists the next 5 fires in the timezone; a bad one says why', () => {
    render(<CronHelper expression="30 8 * * 1-5" timezone="Asia/Tokyo" />);
    expect(screen.getByTestId('cron-description').textContent).toBe('At 08:30, Monday through Friday (Asia/Tokyo)');
    const times = within(screen.getByRole('list', { name: 'Next 5 runs' })).getAllByRole('listitem');
    expect(times).toHaveLength(5);
    expect(times[0].textContent).toMatch(/8:30|08:30/);
    cleanup();
    // A bad one is the field's error (red, blocking the submit), not a hint.
    const { container } = render(<CronHelper expression="0 9 * *" timezone="UTC" />);
    expect(container.textContent).toBe('');
    expect(cronExpressionProblem('0 9 * *')).toMatch(/^Invalid cron expression: expected 5 fields/);
    expect(cronExpressionProblem(' ')).toMatch(/^A schedule is required/);
  });
});

describe('the automation form', () => {
  it('shows the server’s refusal next to the field, then creates the automation', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    expect(screen.getByText('No automations yet')).toBeTruthy();
    fireEvent.click(screen.getAllByRole('button', { name: 'New automation' })[0]);
    const form = screen.getByRole('form', { name: 'New automation' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Weekly report' } });
    fireEvent.change(within(form).getByLabelText('Prompt'), { target: { value: 'Write it.' } });
    fireEvent.change(within(form).getByLabelText('Schedule (cron)'), { target: { value: '0 25 * * *' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create automation' }));
    const cron = within(form).getByLabelText('Schedule (cron)');
    await waitFor(() => expect(cron.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = cron.getAttribute('aria-describedby')!.split(' ');
    const error = describedBy.map((id) => document.getElementById(id)!).find((element) => element.getAttribute('role') === 'alert')!;
    expect(error.textContent).toMatch(/cron/i);
    fireEvent.change(cron, { target: { value: '0 9 * * 1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create automation' }));
    await waitFor(() => expect(screen.getByRole('article', { name: 'Weekly report' })).toBeTruthy());
    expect((await t.api('GET', '/api/automations')).body.automations.map((a: { name: string }) => a.name)).toEqual(['Weekly report']);
    disconnect();
  });
});

describe('the webhook form', () => {
  it('warns while {{payload}} is missing from the template', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <Webhooks />);
    fireEvent.click(screen.getAllByRole('button', { name: 'New webhook' })[0]);
    const template = screen.getByLabelText('Prompt template');
    expect(screen.queryByRole('status')).toBeNull();
    fireEvent.change(template, { target: { value: 'no placeholder here' } });
    expect(screen.getByRole('status').textContent).toContain('no {{payload}}');
    disconnect();
  });
});

describe('the activity filters', () => {
  const at = (minutesAgo: number, kind: ActivityEvent['kind'], instanceId = 'ins_a'): ActivityEvent => ({
    instanceId, instanceName: instanceId, avatarUrl: '', label: 'cron', kind, timestamp: new Date(Date.parse('2026-11-21T12:00:00Z') - minutesAgo * 60_000).toISOString(), displayText: `${kind} ${minutesAgo}`, raw: '{}', line: minutesAgo, runId: null,
  });
  const lines = [at(200, 'user'), at(50, 'tool'), at(20, 'assistant', 'ins_b'), at(3, 'system')];
  const now = Date.parse('2026-11-21T12:00:00Z');

  it('keep a time window, kinds and instances; a custom window; reset keeps everything', () => {
    const texts = (filters: Parameters<typeof filterActivity>[1]) => filterActivity(lines, filters, now).map((line) => line.displayText);
    expect(texts({ ...noFilters, window: '5m' })).toEqual(['system 3']);
    expect(texts({ ...noFilters, window: '1h' })).toEqual(['tool 50', 'assistant 20', 'system 3']);
    expect(texts({ ...noFilters, kinds: ['tool', 'user'] })).toEqual(['user 200', 'tool 50']);
    expect(texts({ ...noFilters, instanceIds: ['ins_b'] })).toEqual(['assistant 20']);
    expect(texts({ ...noFilters, window: 'custom', from: '2026-11-21T11:00:00Z', to: '2026-11-21T11:45:00Z' })).toEqual(['tool 50', 'assistant 20']);
    expect(texts(noFilters)).toHaveLength(4);
  });
});

describe('a full disk', () => {
  it('shows a banner saying why nothing can be saved, gone once writes work again', async () => {
    const { store, disconnect } = connectStore(t);
    t.core.store.storage.failed(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }));
    renderWith(store, <App />);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(/cannot save anything right now: storage_full: The disk holding Steward’s data folder is full/));
    t.core.store.storage.succeeded();
    await store.getState().loadHealth();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    disconnect();
  });
});
