// @vitest-environment jsdom
// Settings' secrets and tunnel sections, the API key's copy button, the runs list's filters, and
// the automation form's catch-up choice, with Testing Library on a real core.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ShownCheck, SignatureField, signatureOf } from '../../src/renderer/src/features/webhooks/SignatureField';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { RunList } from '../../src/renderer/src/features/runs/Runs';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { visibleRuns } from '../../src/renderer/src/features/runs/run-list-slice';
import type { Run } from '../../src/shared/contract';
import { type TestCore, request, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let t: TestCore;
beforeAll(async () => {
  t = await startTestCore();
});
afterAll(() => t.close());
afterEach(cleanup);

describe('settings', () => {
  it('stores, replaces and deletes a secret, saying so; a missing name is said in words', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <><Settings /><Toasts /></>);
    const form = await screen.findByRole('form', { name: 'Store a secret' });
    fireEvent.click(within(form).getByRole('button', { name: 'Store secret' }));
    expect(within(form).getByText('Give the secret a name, e.g. OPENROUTER_KEY.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Secret name'), { target: { value: 'OPENROUTER_KEY' } });
    fireEvent.change(within(form).getByLabelText('Value'), { target: { value: 'sk-123' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Store secret' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('Secret OPENROUTER_KEY stored.'));
    const row = screen.getByRole('row', { name: /OPENROUTER_KEY/ });
    expect((await t.api('GET', '/api/secrets')).body.secrets.map((each: { name: string }) => each.name)).toEqual(['OPENROUTER_KEY']);
    fireEvent.click(within(row).getByRole('button', { name: 'Replace' }));
    fireEvent.change(within(form).getByLabelText('Value'), { target: { value: 'sk-456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Replace value' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('Secret OPENROUTER_KEY replaced.'));
    fireEvent.click(within(screen.getByRole('row', { name: /OPENROUTER_KEY/ })).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(screen.getByRole('group', { name: /Delete OPENROUTER_KEY/ })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /OPENROUTER_KEY/ })).toBeNull());
    expect((await t.api('GET', '/api/secrets')).body.secrets).toEqual([]);
    disconnect();
  });

  it('configures an SSH tunnel: problems in words next to their fields, gone once fixed', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <><Settings /><Toasts /></>);
    await waitFor(() => expect(screen.getByTestId('tunnel-state').textContent).toContain('off'));
    const form = screen.getByRole('form', { name: 'Tunnel' });
    fireEvent.change(within(form).getByLabelText('Provider'), { target: { value: 'ssh' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save tunnel' }));
    expect(within(form).getByText('Enter the host to forward through, e.g. hooks.example.com.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Remote port'), { target: { value: '99999' } });
    expect(within(form).queryByText(/Enter the port/)).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Save tunnel' }));
    expect(within(form).getByText('A port is a whole number from 1 to 65535.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Host'), { target: { value: 'hooks.example.com' } });
    fireEvent.change(within(form).getByLabelText('Remote port'), { target: { value: '8080' } });
    fireEvent.change(within(form).getByLabelText('Public URL'), { target: { value: 'https://hooks.example.com' } });
    expect(within(form).queryByRole('alert')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Save tunnel' }));
    await waitFor(() => expect(store.getState().tunnel?.config).toMatchObject({ provider: 'ssh', host: 'hooks.example.com', remotePort: 8080 }));
    expect(screen.getByTestId('toasts').textContent).toContain('Tunnel saved.');
    disconnect();
  });

  it('shows a new API key once, with a copy button, and hides launch at login outside the desktop app', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadSettings();
    renderWith(store, <><Settings /><Toasts /></>);
    expect(screen.queryByText(/Launch Steward at login/)).toBeNull();
    fireEvent.change(await screen.findByLabelText('Key name'), { target: { value: 'laptop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    await waitFor(() => expect(screen.getByTestId('new-key').textContent).toMatch(/^stw_/));
    expect(screen.getByRole('button', { name: 'Copy key' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('new-key')).toBeNull();
    disconnect();
  });
});

describe('the runs list', () => {
  it('filters by source and instance', async () => {
    const hook = (await t.api('POST', '/api/webhooks', { name: 'filtered', promptTemplate: '{{payload}}' })).body.webhook;
    for (const body of ['one', 'two']) await request(`${t.url}/api/webhooks/trigger/${hook.token}`, { method: 'POST', body });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadRuns()]);
    renderWith(store, <RunList />);
    const filters = await screen.findByRole('form', { name: 'Filter runs' });
    fireEvent.change(within(filters).getByLabelText('Source'), { target: { value: 'webhook' } });
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(3));
    fireEvent.change(within(filters).getByLabelText('Source'), { target: { value: 'chat' } });
    await screen.findByText('No runs match');
    fireEvent.change(within(filters).getByLabelText('Source'), { target: { value: '' } });
    fireEvent.change(within(filters).getByLabelText('Instance'), { target: { value: hook.instanceId } });
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThanOrEqual(3));
    disconnect();
  });

  it('merges live runs without leaving a gap before the last page', () => {
    const run = (id: string, status: Run['status'] = 'queued') => ({ id, status, source: 'api', instanceId: 'ins_a' }) as Run;
    const page = [run('run_5'), run('run_3')];
    const live = [run('run_9'), run('run_5', 'succeeded'), run('run_1')];
    expect(visibleRuns(page, live, {}, true).map((each) => `${each.id}:${each.status}`)).toEqual(['run_9:queued', 'run_5:succeeded', 'run_3:queued']);
    expect(visibleRuns(page, live, { status: 'queued' }, false).map((each) => each.id)).toEqual(['run_9', 'run_3', 'run_1']);
  });
});

describe('the automation form', () => {
  it('saves what happens to missed runs, and Escape closes the form', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(screen.getAllByRole('button', { name: /New automation|Create your first/ })[0]);
    const form = screen.getByRole('form', { name: 'New automation' });
    expect(document.activeElement).toBe(within(form).getByLabelText('Name'));
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Nightly' } });
    fireEvent.change(within(form).getByLabelText('Prompt'), { target: { value: 'p' } });
    fireEvent.change(within(form).getByLabelText('Missed runs'), { target: { value: 'skip' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create automation' }));
    await waitFor(() => expect(store.getState().automations.find((each) => each.name === 'Nightly')?.catchUp).toBe('skip'));
    fireEvent.click(within(screen.getByRole('article', { name: 'Nightly' })).getByRole('button', { name: 'Edit' }));
    expect(screen.getByRole('form', { name: 'Edit Nightly' })).toBeTruthy();
    fireEvent.keyDown(window, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Nightly' })).toBeNull());
    disconnect();
  });
});

describe('the signature field', () => {
  it('sends what it shows: a scheme and secret, the stored secret kept while none is typed, None removes the check', () => {
    const stored = { scheme: 'github' as const };
    expect(signatureOf({ scheme: 'github', secret: '' }, stored)).toEqual({ value: undefined });
    expect(signatureOf({ scheme: 'github', secret: 'long enough' }, stored)).toEqual({ value: { scheme: 'github', secret: 'long enough' } });
    expect(signatureOf({ scheme: 'github', secret: 'short' }, stored).problem).toBe('The secret must be at least 8 characters.');
    expect(signatureOf({ scheme: 'stripe', secret: '' }, stored).problem).toMatch(/^Type the signing secret, or choose None/);
    expect(signatureOf({ scheme: 'none', secret: '' }, stored)).toEqual({ value: null });
    expect(signatureOf({ scheme: 'none', secret: '' }, null)).toEqual({ value: undefined });
  });

  it('says a stored secret is kept, and what None means', () => {
    const shown: ShownCheck[] = [];
    const { rerender } = render(<SignatureField shown={{ scheme: 'github', secret: '' }} stored={{ scheme: 'github' }} onChange={(next) => shown.push(next)} />);
    expect(screen.getByText(/Stored, never shown/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Scheme'), { target: { value: 'none' } });
    expect(shown).toEqual([{ scheme: 'none', secret: '' }]);
    rerender(<SignatureField shown={{ scheme: 'none', secret: '' }} stored={{ scheme: 'github' }} onChange={(next) => shown.push(next)} />);
    expect(screen.queryByLabelText('Signing secret')).toBeNull();
    expect(screen.getByText('Anyone with the trigger URL can trigger it.')).toBeTruthy();
  });
});
