// @vitest-environment jsdom
// Remote Stewards in the UI, on two real cores (each its own data folder and loopback port): in
// Settings a URL the contract refuses is said in its words, a wrong key and a good one are tested,
// the remote is added (the pasted key stored as a secret) and comes up connected, and is removed
// after a confirmation. In Instances its instances carry their host, pickers tell two "Steward"s
// apart, its Steward's default offers no Delete, and once it is gone one notice says so while its cards stay, quieter, without the error.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { InstanceField } from '../../src/renderer/src/features/instances/InstanceField';
import { RemoteStewards } from '../../src/renderer/src/features/settings/RemoteStewards';
import { Settings } from '../../src/renderer/src/features/settings/Settings';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { type Instance, type Remote, remoteUrlProblem } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { connectStore, renderWith } from './harness';

const remoteTiming = { minBackoffMs: 200, maxBackoffMs: 1_000, checkEveryMs: 500, stallMs: 20_000 };
let local: TestCore;
let remote: TestCore;
let remoteOpen = true;
beforeAll(async () => {
  local = await startTestCore({ clock: systemClock, remoteTiming });
  remote = await startTestCore({ clock: systemClock });
});
afterAll(async () => {
  if (remoteOpen) await remote?.close();
  await local?.close();
});
afterEach(cleanup);

const remotesHere = async () => (await local.api('GET', '/api/remotes')).body.remotes as Remote[];

describe('Remote Stewards in Settings', () => {
  it('refuses a URL in the contract’s words, tests a wrong and a right key, adds the remote, removes it after asking', async () => {
    expect((await local.api('PUT', '/api/secrets/OLD_KEY', { value: 'stw_old' })).status).toBe(200);
    const { store, disconnect } = connectStore(local);
    await store.getState().loadSettings();
    renderWith(store, <><Settings /><Toasts /></>);
    expect(await screen.findByText('No remote Stewards: only this machine’s instances are shown.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add remote' }));
    const form = screen.getByRole('form', { name: 'Add a remote Steward' });
    fireEvent.change(within(form).getByLabelText('Remote name'), { target: { value: 'Build box' } });
    fireEvent.change(within(form).getByLabelText('Remote URL'), { target: { value: 'http://steward.example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(within(form).getByText(`The URL ${remoteUrlProblem('http://steward.example.com')}.`)).toBeTruthy();
    expect(within(form).getByText('Paste an API key of that Steward (made there in Settings → API keys).')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('Remote URL'), { target: { value: remote.url } });
    expect(within(form).queryByText(/^The URL /)).toBeNull();
    expect(within(form).getByLabelText<HTMLInputElement>('Store it as').value).toBe('remote-build-box-key');
    // A name already stored would be replaced: said before it is.
    fireEvent.change(within(form).getByLabelText('Store it as'), { target: { value: 'OLD_KEY' } });
    expect(within(form).getByText('A secret named OLD_KEY is stored: the pasted key replaces it.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Store it as'), { target: { value: 'remote-build-box-key' } });
    expect(within(form).queryByText(/is stored: the pasted key replaces it/)).toBeNull();
    fireEvent.change(within(form).getByLabelText('API key'), { target: { value: 'stw_not_a_key' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    const refused = await within(form).findByRole('alert', {}, { timeout: 10_000 });
    expect(within(refused).getByText('unauthorized')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('API key'), { target: { value: remote.key } });
    expect(within(form).queryByRole('alert')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Test connection' }));
    const found = await within(form).findByRole('status', {}, { timeout: 10_000 });
    expect(found.textContent).toMatch(/connected Steward \S+ · \d+ ms · 1 instance$/);
    expect(remoteKeyNowhere(store.getState(), remote.key)).toBe(true);

    fireEvent.click(within(form).getByRole('button', { name: 'Add remote' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('Following Build box: its instances show in Instances.'));
    expect(screen.queryByRole('form', { name: 'Add a remote Steward' })).toBeNull();
    const table = screen.getByRole('table', { name: 'Remote Stewards' });
    const row = within(table).getByRole('row', { name: /Build box/ });
    // It connects after it is added: the live change brings the state, version and latency.
    await waitFor(() => expect(within(row).queryByText('connected')).toBeTruthy(), { timeout: 10_000 });
    expect(row.textContent).toContain('127.0.0.1');
    expect(row.textContent).toMatch(/\d+ ms/);
    expect(row.textContent).toContain('since');
    expect((await local.api('GET', '/api/secrets')).body.secrets.map((each: { name: string }) => each.name)).toEqual(['OLD_KEY', 'remote-build-box-key']);
    expect(await remotesHere()).toMatchObject([{ name: 'Build box', apiKeyRef: 'remote-build-box-key', url: remote.url }]);

    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    expect(within(row).getByText(/Stop following Build box\?/)).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Remote Stewards' })).toBeNull());
    expect(await remotesHere()).toEqual([]);
    expect(store.getState().instances.every((instance) => instance.location === 'local')).toBe(true);
    disconnect();
  }, 40_000);
});

/** The key never reaches the renderer's state: only the secret's name does. */
function remoteKeyNowhere(state: object, key: string): boolean {
  const seen = new WeakSet<object>();
  return !JSON.stringify(state, (_name, value: unknown) => {
    if (typeof value === 'function') return undefined;
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  }).includes(key);
}

describe('remote instances', () => {
  it('carry their host; pickers tell them apart; a remote gone shows once, its cards stay without the error', async () => {
    expect((await local.api('PUT', '/api/secrets/server-key', { value: remote.key })).status).toBe(200);
    const created = await local.api('POST', '/api/remotes', { name: 'Server', url: remote.url, apiKeyRef: 'server-key' });
    expect(created.status).toBe(201);
    const builder = (await remote.api('POST', '/api/instances', { name: 'Builder', agent: { provider: 'command', preset: 'custom', command: 'cat' } })).body.instance as Instance;
    const { store, disconnect } = connectStore(local);
    await waitFor(async () => {
      await store.getState().loadInstances();
      expect(store.getState().instances.filter((instance) => instance.location === created.body.remote.id)).toHaveLength(2);
    }, { timeout: 10_000 });

    renderWith(store, <><Instances /><InstanceField value={builder.id} onChange={() => undefined} /></>);
    const group = await screen.findByRole('region', { name: 'Server on 127.0.0.1' });
    const cards = within(group).getAllByRole('article');
    expect(cards.map((card) => card.getAttribute('aria-label')).sort()).toEqual(['Builder', 'Steward']);
    for (const card of cards) {
      expect(within(card).getByText('127.0.0.1').closest('.badge')?.textContent).toBe('⇄ runs on 127.0.0.1');
      // Its agent and sandbox are that Steward's: not edited here; rename, start and stop stay.
      expect(within(card).queryByRole('button', { name: 'Edit agent' })).toBeNull();
      expect(within(card).getByRole('button', { name: 'Rename' })).toBeTruthy();
      expect(within(card).getByRole('button', { name: /^(Start|Stop)$/ })).toBeTruthy();
    }
    // Its Steward's default instance, which that Steward will not delete, offers no Delete, and says why.
    const remoteDefault = within(group).getByRole('article', { name: 'Steward' });
    expect(within(remoteDefault).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(remoteDefault).getByTitle('The default instance of 127.0.0.1: that Steward does not let it be deleted.')).toBeTruthy();
    expect(within(within(group).getByRole('article', { name: 'Builder' })).getByRole('button', { name: 'Delete' })).toBeTruthy();
    expect(screen.getAllByRole('article', { name: 'Steward' })).toHaveLength(2);
    // Whether each agent is ready does not matter here: only the names.
    const options = within(screen.getByLabelText('Instance')).getAllByRole('option').map((option) => option.textContent?.replace(' (not ready)', ''));
    expect(options.sort()).toEqual(['Builder (on 127.0.0.1)', 'Steward', 'Steward (on 127.0.0.1)']);
    expect(within(group).queryByRole('alert')).toBeNull();

    await remote.close();
    remoteOpen = false;
    const notice = await within(group).findByRole('alert', { name: 'Server is unreachable' }, { timeout: 10_000 });
    const { error } = (await remotesHere())[0];
    expect(error).toBeTruthy();
    expect(notice.textContent).toContain(error);
    expect(notice.textContent).toContain('since');
    expect(screen.getAllByRole('alert', { name: /^Server is / })).toHaveLength(1);
    await waitFor(() => expect(within(group).getAllByRole('article').every((card) => card.classList.contains('muted'))).toBe(true));
    for (const card of within(group).getAllByRole('article')) {
      expect(card.textContent).not.toContain(error);
      expect(within(card).getByText('unreachable')).toBeTruthy();
    }
    expect(document.body.textContent?.split(error!).length).toBe(2);

    // Settings lists it with its state, error and since when.
    cleanup();
    await store.getState().loadRemotes();
    renderWith(store, <RemoteStewards />);
    const row = within(screen.getByRole('table', { name: 'Remote Stewards' })).getByRole('row', { name: /Server/ });
    expect(within(row).getByText('unreachable')).toBeTruthy();
    expect(row.textContent).toContain(error);
    expect(row.textContent).toContain('last connected');
    disconnect();
  }, 40_000);
});
