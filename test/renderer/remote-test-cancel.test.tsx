// @vitest-environment jsdom
// Adding a remote Steward, tested then cancelled, on two real cores: "Test connection" with a
// pasted key tests it as it is, and nothing is stored (no secret) unless Add is pressed.
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

let local: TestCore;
let remote: TestCore;
beforeAll(async () => {
  local = await startTestCore({ clock: systemClock });
  remote = await startTestCore({ clock: systemClock });
});
afterAll(async () => {
  await remote?.close();
  await local?.close();
});
afterEach(cleanup);

describe('Test connection, then Cancel', () => {
  it('stores nothing when a connection is tested and the form cancelled: the pasted key is stored by Add only', async () => {
    const before = (await local.api('GET', '/api/secrets')).body.secrets.map((each: { name: string }) => each.name);
    const { store, disconnect } = connectStore(local);
    await store.getState().loadSettings();
    renderWith(store, <><Settings /><Toasts /></>);
    fireEvent.click(await screen.findByRole('button', { name: 'Add remote' }));
    const form = screen.getByRole('form', { name: 'Add a remote Steward' });
    fireEvent.change(within(form).getByLabelText('Remote name'), { target: { value: 'Spare box' } });
    fireEvent.change(within(form).getByLabelText('Remote URL'), { target: { value: remote.url } });
    fireEvent.change(within(form).getByLabelText('API key'), { target: { value: remote.key } });
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    const found = await within(form).findByRole('status', {}, { timeout: 10_000 });
    expect(found.textContent).toMatch(/connected Steward \S+ · \d+ ms · 1 instance$/);
    expect((await local.api('GET', '/api/secrets')).body.secrets.map((each: { name: string }) => each.name)).toEqual(before);
    fireEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form', { name: 'Add a remote Steward' })).toBeNull();
    expect((await local.api('GET', '/api/secrets')).body.secrets.map((each: { name: string }) => each.name)).toEqual(before);
    expect(before).not.toContain('remote-spare-box-key');
    disconnect();
  }, 40_000);
});
