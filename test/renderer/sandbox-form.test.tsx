// @vitest-environment jsdom
// The Sandbox section of the agent form on a real core: a new instance made with allowed hosts and
// extra paths, those edited through "Edit agent" (the whole sandbox sent again), an invalid row
// refused beside it with nothing saved, the "sandboxed" / "not sandboxed" badge with its one-click
// "Sandbox it", and the onboarding card's sentence and its way out where the machine cannot sandbox.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Toasts } from '../../src/renderer/src/ui/Toasts';
import { Instances } from '../../src/renderer/src/features/instances/Instances';
import { Onboarding } from '../../src/renderer/src/features/onboarding/Onboarding';
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
const cat = { provider: 'command', preset: 'custom', command: 'cat' };

describe('the Sandbox section of the agent form', () => {
  it('creates an instance with allowed hosts and extra paths, and edits them', async () => {
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadSettings()]);
    renderWith(store, <Instances />);
    fireEvent.click(screen.getByRole('button', { name: 'New instance' }));
    const form = screen.getByRole('form', { name: 'New instance' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'Fenced' } });
    fireEvent.change(within(form).getByLabelText('Agent'), { target: { value: 'custom' } });
    fireEvent.change(within(form).getByLabelText('Command'), { target: { value: 'cat' } });
    const section = within(within(form).getByRole('group', { name: 'Sandbox' }));
    // Sandboxed unless told otherwise.
    expect(section.getByRole<HTMLInputElement>('radio', { name: /^Sandboxed \(recommended\): the agent sees its workspace/ }).checked).toBe(true);
    expect(section.getByRole<HTMLInputElement>('radio', { name: /^Off: runs as you, with your files and network/ }).checked).toBe(false);
    fireEvent.click(section.getByRole('button', { name: 'Add host' }));
    fireEvent.change(section.getByLabelText('Allowed host 1'), { target: { value: ' API.Example.com ' } });
    fireEvent.click(section.getByRole('button', { name: 'Add host' }));
    fireEvent.change(section.getByLabelText('Allowed host 2'), { target: { value: '*.github.com' } });
    // An empty row is dropped, not refused.
    fireEvent.click(section.getByRole('button', { name: 'Add host' }));
    fireEvent.click(section.getByRole('button', { name: 'Add hidden path' }));
    fireEvent.change(section.getByLabelText('Hidden path 1'), { target: { value: '~/private' } });
    fireEvent.click(section.getByRole('button', { name: 'Add writable path' }));
    fireEvent.change(section.getByLabelText('Writable path 1'), { target: { value: '/srv/notes' } });
    // The agent's environment is built: the form says what it gets, and takes more by name only.
    expect(within(form).getByLabelText('Environment').getAttribute('aria-describedby')).toBeTruthy();
    expect(form.textContent).toContain('The agent gets only PATH, HOME, LANG, LC_*, TERM, TZ, USER, LOGNAME, SHELL, TMPDIR, the proxy variables (HTTP_PROXY, HTTPS_PROXY, NO_PROXY) and the certificates to trust');
    fireEvent.click(section.getByRole('button', { name: 'Add variable' }));
    fireEvent.change(section.getByLabelText('Variable passed on 1'), { target: { value: 'SECRET_*' } });
    expect(section.getByText(/^must be an environment variable name/)).toBeTruthy();
    fireEvent.change(section.getByLabelText('Variable passed on 1'), { target: { value: 'JAVA_HOME' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create instance' }));

    const card = await screen.findByRole('article', { name: 'Fenced' });
    expect((await stored('Fenced')).sandbox).toEqual({ mode: 'sandbox', network: ['api.example.com', '*.github.com'], readAllow: [], readDeny: ['~/private'], writeAllow: ['/srv/notes'], envAllow: ['JAVA_HOME'] });
    expect(within(card).getByText('sandboxed')).toBeTruthy();
    expect(within(card).queryByRole('button', { name: 'Sandbox it' })).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const editor = within(card).getByRole('form', { name: 'Agent of Fenced' });
    expect(within(editor).getByLabelText<HTMLInputElement>('Allowed host 1').value).toBe('api.example.com');
    expect(within(editor).getByLabelText<HTMLInputElement>('Hidden path 1').value).toBe('~/private');
    fireEvent.click(within(editor).getByRole('button', { name: 'Remove allowed host 1' }));
    fireEvent.click(within(editor).getByRole('button', { name: 'Add host' }));
    fireEvent.change(within(editor).getByLabelText('Allowed host 2'), { target: { value: '127.0.0.1:8080' } });
    fireEvent.change(within(editor).getByLabelText('Writable path 1'), { target: { value: '~/notes' } });
    fireEvent.click(within(editor).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(within(card).queryByRole('form', { name: 'Agent of Fenced' })).toBeNull());
    expect((await stored('Fenced')).sandbox).toEqual({ mode: 'sandbox', network: ['*.github.com', '127.0.0.1:8080'], readAllow: [], readDeny: ['~/private'], writeAllow: ['~/notes'], envAllow: ['JAVA_HOME'] });

    // Off, chosen in the form: marked as the risk it is, and the card says so once saved.
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const again = within(card).getByRole('form', { name: 'Agent of Fenced' });
    fireEvent.click(within(again).getByRole('radio', { name: /^Off: / }));
    expect(within(again).getByRole('status').textContent).toContain('Not sandboxed: the agent can read your SSH keys');
    fireEvent.click(within(again).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(within(card).getByText('not sandboxed')).toBeTruthy());
    expect((await stored('Fenced')).sandbox).toEqual({ mode: 'off', network: ['*.github.com', '127.0.0.1:8080'], readAllow: [], readDeny: ['~/private'], writeAllow: ['~/notes'], envAllow: ['JAVA_HOME'] });
    disconnect();
  });

  it('shows an invalid host or path beside it, and saves nothing', async () => {
    const { store, disconnect } = connectStore(t);
    const instance = await store.getState().createInstance({ name: 'Strict', agent: cat, sandbox: { mode: 'sandbox', network: ['example.com'], readDeny: [], writeAllow: [] } });
    await t.core.services.instances.idle();
    const before = await stored('Strict');
    renderWith(store, <Instances />);
    const card = screen.getByRole('article', { name: 'Strict' });
    fireEvent.click(within(card).getByRole('button', { name: 'Edit agent' }));
    const form = within(card).getByRole('form', { name: 'Agent of Strict' });
    fireEvent.click(within(form).getByRole('button', { name: 'Add host' }));
    const host = within(form).getByLabelText('Allowed host 2');
    fireEvent.change(host, { target: { value: 'https://evil.com/path' } });
    // Refused as typed, beside the row and tied to it.
    expect(host.getAttribute('aria-invalid')).toBe('true');
    const hostError = document.getElementById(host.getAttribute('aria-describedby')!)!;
    expect(hostError.textContent).toMatch(/^must be a host name, a \*\.wildcard/);
    fireEvent.click(within(form).getByRole('button', { name: 'Add hidden path' }));
    fireEvent.change(within(form).getByLabelText('Hidden path 1'), { target: { value: 'relative/secrets' } });
    expect(within(form).getByText('must be an absolute path or start with ~/')).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    expect(within(form).getByRole('alert').textContent).toMatch(/^Nothing was saved\. Allowed hosts, entry 2: must be a host name/);
    expect(within(card).getByRole('form', { name: 'Agent of Strict' })).toBeTruthy();
    expect(await stored('Strict')).toEqual(before);

    // A new instance with a refused row is not created either.
    fireEvent.click(screen.getByRole('button', { name: 'New instance' }));
    const create = screen.getByRole('form', { name: 'New instance' });
    fireEvent.change(within(create).getByLabelText('Name'), { target: { value: 'Never made' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Add host' }));
    fireEvent.change(within(create).getByLabelText('Allowed host 1'), { target: { value: 'a b' } });
    fireEvent.click(within(create).getByRole('button', { name: 'Create instance' }));
    expect(within(create).getByRole('alert').textContent).toContain('Nothing was saved.');
    expect(await stored('Never made')).toBeUndefined();

    // Fixed, the error goes and the save goes through.
    fireEvent.change(host, { target: { value: 'evil.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Remove hidden path 1' }));
    expect(host.getAttribute('aria-invalid')).toBeNull();
    expect(within(form).queryByRole('alert')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Save agent' }));
    await waitFor(() => expect(store.getState().instances.find((each) => each.id === instance.id)?.sandbox.network).toEqual(['example.com', 'evil.com']));
    disconnect();
  });
});

describe('the sandbox badge', () => {
  it('marks an instance that is not sandboxed, and "Sandbox it" switches it on, keeping its lists', async () => {
    const sandbox = { mode: 'off', network: ['api.example.com'], readDeny: ['~/private'], writeAllow: [] };
    const { instance } = (await t.api('POST', '/api/instances', { name: 'Legacy', agent: cat, sandbox })).body;
    await t.core.services.instances.idle();
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    renderWith(store, <><Instances /><Toasts /></>);
    const card = screen.getByRole('article', { name: 'Legacy' });
    expect(within(card).getByText('not sandboxed').className).toBe('badge unsandboxed');
    expect(card.textContent).toContain('Not sandboxed: its agent runs as you, with your files and network.');
    await waitFor(() => expect(card.textContent).toMatch(/custom:cat · host/));

    fireEvent.click(within(card).getByRole('button', { name: 'Sandbox it' }));
    await waitFor(() => expect(screen.getByTestId('toasts').textContent).toContain('Legacy is sandboxed; its agent is checked again.'));
    expect(within(card).getByText('sandboxed').className).toBe('badge sandboxed');
    expect(within(card).queryByRole('button', { name: 'Sandbox it' })).toBeNull();
    expect((await t.api('GET', `/api/instances/${instance.id}`)).body.instance.sandbox).toEqual({ ...sandbox, readAllow: [], mode: 'sandbox', envAllow: [] });
    disconnect();
  });
});

describe('the onboarding card', () => {
  it('says the agent runs sandboxed; where the machine cannot sandbox, it gives the reason and runs it unsandboxed only when asked', async () => {
    const { store, disconnect } = connectStore(t);
    await store.getState().loadInstances();
    await t.core.services.instances.idle();
    renderWith(store, <Onboarding onStarted={() => undefined} />);
    const card = screen.getByRole('region', { name: 'Welcome to Steward' });
    expect(card.textContent).toContain('It runs sandboxed: the agent sees only its workspace and the hosts you allow');
    expect(within(card).queryByRole('group', { name: 'Sandbox unavailable' })).toBeNull();

    // This machine can sandbox: the probe's answer where it cannot is played into the store, as a live event would bring it.
    const steward = store.getState().instances.find((each) => each.isDefault)!;
    const reason = 'This machine cannot sandbox: bubblewrap is not installed. Install it (apt-get install bubblewrap socat, dnf install bubblewrap socat), or set the instance\'s sandbox to "off" to run its agent as you, unsandboxed.';
    store.getState().upsertInstance({ ...steward, status: 'error', statusReason: reason, imageTag: '' });
    const unavailable = await within(card).findByRole('group', { name: 'Sandbox unavailable' });
    expect(unavailable.textContent).toContain(reason);
    expect(within(card).getByRole('status', { name: 'Steward status' }).textContent).toBe('Not ready: this machine cannot sandbox the agent.');
    const runOpen = within(unavailable).getByRole('button', { name: 'Run without a sandbox' });
    expect(runOpen.className).toBe('danger');
    expect(document.getElementById(runOpen.getAttribute('aria-describedby')!)!.textContent).toContain('Without a sandbox the agent runs as you');
    fireEvent.click(runOpen);
    await waitFor(() => expect(within(card).queryByRole('group', { name: 'Sandbox unavailable' })).toBeNull());
    expect((await t.api('GET', `/api/instances/${steward.id}`)).body.instance.sandbox.mode).toBe('off');

    // Off, the card says so and offers the way back.
    fireEvent.click(within(card).getByRole('button', { name: 'Sandbox it' }));
    await waitFor(() => expect(card.textContent).toContain('It runs sandboxed'));
    expect((await t.api('GET', `/api/instances/${steward.id}`)).body.instance.sandbox.mode).toBe('sandbox');
    disconnect();
  });
});
