// @vitest-environment jsdom
// Run notifications in the UI on a real core: adding a signed webhook channel shows its secret
// once, Send test says how it went, a failing channel shows a failed badge with its error, its
// deliveries list, delete asks first; a run's page lists the notifications it caused.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { RunView } from '../../src/renderer/src/features/runs/Run';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { type Receiver, startReceiver } from '../support/receiver';
import { settled } from '../support/runs';
import { connectStore, renderWith } from './harness';

let t: TestCore;
let hook: Receiver;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, notificationTiming: { retryDelaysMs: [], attemptTimeoutMs: 2_000 } });
  hook = await startReceiver(() => ({ status: 200, body: 'ok' }));
});
afterAll(async () => {
  await hook.close();
  await t.close();
});
afterEach(cleanup);

describe('run notifications in Settings', () => {
  it('adds a webhook channel (secret shown once), tests it, shows a failing one, lists deliveries, deletes', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadSettings(), store.getState().loadInstances()]);
    renderWith(store, <><Settings /><Toasts /></>);
    fireEvent.click(await screen.findByRole('button', { name: 'Add channel' }));
    const form = screen.getByRole('form', { name: 'New notification channel' });
    fireEvent.change(within(form).getByLabelText('Channel name'), { target: { value: 'Ops' } });
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: 'ftp://nope' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    await waitFor(() => expect(within(form).getByText('The URL must be an http:// or https:// URL.')).toBeTruthy());
    fireEvent.change(within(form).getByLabelText('URL'), { target: { value: `${hook.url}/ops` } });
    fireEvent.click(within(form).getByRole('button', { name: 'Add channel' }));
    const secret = await screen.findByTestId('signing-secret');
    expect(secret.textContent).toMatch(/^whsec_/);
    expect(screen.getByRole('button', { name: 'Copy secret' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Run notifications' });
    expect(within(table).getByRole('row', { name: /Ops/ }).textContent).toContain('failures');
    expect(within(table).getByRole('row', { name: /Ops/ }).textContent).toContain('every run');

    fireEvent.click(screen.getByRole('button', { name: 'Send test to Ops' }));
    await waitFor(() => expect(screen.getByText('Test to Ops: delivered (200)')).toBeTruthy(), { timeout: 5_000 });
    expect(hook.received.at(-1)?.path).toBe('/ops');
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('signing-secret')).toBeNull();

    const dead = await startReceiver();
    await dead.close();
    await t.api('POST', '/api/notification-channels', { name: 'Gone', kind: 'slack', url: `${dead.url}/services/T/B/secret` });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send test to Gone' }));
    await waitFor(() => expect(screen.getByText(/^Test to Gone: failed after 1 attempt: The request failed: ECONNREFUSED/)).toBeTruthy(), { timeout: 5_000 });
    const goneRow = within(screen.getByRole('table', { name: 'Run notifications' })).getByRole('row', { name: /Gone/ });
    expect(within(goneRow).getByText('failed')).toBeTruthy();
    expect(goneRow.textContent).toContain('ECONNREFUSED');
    expect(goneRow.textContent).toContain(`${dead.url}/services/…`);

    fireEvent.click(within(goneRow).getByRole('button', { name: 'Deliveries to Gone' }));
    const deliveries = await screen.findByRole('table', { name: 'Deliveries to Gone' });
    expect(within(deliveries).getAllByRole('row')[1].textContent).toContain('test');

    fireEvent.click(within(goneRow).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(goneRow).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Gone/ })).toBeNull());
    expect((await t.api('GET', '/api/notification-channels')).body.channels.map((channel: { name: string }) => channel.name)).toEqual(['Ops']);
    disconnect();
  });
});

describe('run page', () => {
  it('lists the notifications a run caused with their status', async () => {
    const instanceId = (await t.api('POST', '/api/instances', { name: 'Breaks', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'exit 3'] } })).body.instance.id;
    const run = await settled(t, (await t.api('POST', '/api/runs', { instanceId, prompt: 'go' })).body.run.id as string);
    await waitFor(async () => expect((await t.api('GET', `/api/runs/${run.id}/notifications`)).body.deliveries[0]?.status).toBe('delivered'), { timeout: 10_000 });
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <RunView id={run.id} />);
    const line = await screen.findByLabelText('Notifications');
    expect(line.textContent).toContain('Ops');
    expect(line.textContent).toContain('delivered');
    disconnect();
  });
});
