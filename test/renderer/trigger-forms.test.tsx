// @vitest-environment jsdom
// The When section's kinds on a real core: a folder watch made by filling the form (its filter and
// catch-up stored in the contract's shape, the card saying it in words, shown back when edited);
// once and every with their next runs and the card's words; mail and feed refusals beside their
// fields with nothing saved; a mail source that cannot connect shown failing in full on its card;
// the Check of what would have fired (a real answer, and a source's refusal in its words); a
// watched folder the instance's sandbox cannot read; History naming the event of each run and the
// events that started none; and the Agenda showing an `every` automation's fires.
import fs from 'node:fs';
import net from 'node:net';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/main/core/scheduler/clock';
import { Automations } from '../../src/renderer/src/features/automations/Automations';
import { Agenda } from '../../src/renderer/src/features/agenda/Agenda';
import { ApiError, type CallInput, type StewardClient } from '../../src/renderer/src/lib/api';
import { createAppStore } from '../../src/renderer/src/store';
import type { Automation } from '../../src/shared/contract';
import { type TestCore, startTestCore } from '../support/core';
import { tempDir } from '../support/temp';
import { connectStore, ipcClientOf, renderWith } from './harness';

let t: TestCore;
let folder: string;
beforeAll(async () => {
  t = await startTestCore({ clock: systemClock, sourceBackoffMs: () => 200 });
  folder = tempDir('steward-watch-form-');
});
afterAll(async () => {
  await t.close();
  fs.rmSync(folder, { recursive: true, force: true });
});
afterEach(cleanup);

const automationNamed = async (name: string): Promise<Automation | undefined> => ((await t.api('GET', '/api/automations')).body.automations as Automation[]).find((each) => each.name === name);
const errorOf = (field: HTMLElement) => field.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)!).find((note) => note.getAttribute('role') === 'alert')?.textContent;
const warningOf = (field: HTMLElement) => field.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)!).find((note) => note.className === 'warning')?.textContent;
const type = (field: HTMLElement, value: string) => fireEvent.change(field, { target: { value } });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function openForm() {
  const { store, disconnect } = connectStore(t);
  await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations(), store.getState().loadSecrets()]);
  renderWith(store, <Automations />);
  fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
  return { store, disconnect, form: within(screen.getByRole('form', { name: 'New automation' })) };
}

describe('the When section', () => {
  it('makes a folder watch with a filter, says it in words on the card, and shows it back', async () => {
    const { form, disconnect } = await openForm();
    type(form.getByLabelText('Name'), 'File invoices');
    type(form.getByLabelText('Prompt'), 'File {{event.path}} ({{event.size}} bytes).');
    fireEvent.click(form.getByRole('radio', { name: 'A folder' }));
    expect(form.queryByLabelText('Schedule (cron)')).toBeNull();
    // The kind's fields, with the contract's words as help, and what its prompt may quote.
    expect(form.getByTestId('event-fields').textContent).toBe('Its prompt may use {{event}} (the file, whole) and {{event.path}}, {{event.relativePath}}, {{event.name}}, {{event.change}}, {{event.size}} and {{event.modifiedAt}}, fenced as text from outside.');
    type(form.getByLabelText('Folder'), folder);
    type(form.getByLabelText('Files'), '*.pdf');
    fireEvent.click(form.getByRole('checkbox', { name: 'Changed' }));
    type(form.getByLabelText('Runs'), 'batch');
    fireEvent.click(form.getByRole('button', { name: 'Add a condition' }));
    const condition = within(form.getByRole('group', { name: 'Condition 1' }));
    type(condition.getByLabelText('Field'), 'name');
    type(condition.getByLabelText('Test'), 'contains');
    type(condition.getByLabelText('Value'), 'invoice');
    // Events' catch-up: each by default, here only the latest.
    const catchUp = form.getByLabelText<HTMLSelectElement>('Events while Steward was off');
    expect(catchUp.value).toBe('all');
    expect([...catchUp.options].map((option) => option.text)).toEqual(['Run each', 'Only the latest', 'Skip them']);
    type(catchUp, 'latest');
    fireEvent.click(form.getByRole('button', { name: 'Create automation' }));

    const card = await screen.findByRole('article', { name: 'File invoices' });
    const saved = await automationNamed('File invoices');
    expect(saved).toMatchObject({
      cronExpression: null, catchUp: 'latest',
      trigger: { watch: { path: folder, glob: '*.pdf', on: ['created', 'changed'], per: 'batch', debounceMs: 1000, settleMs: 2000, filter: [{ field: 'name', contains: 'invoice' }] } },
    });
    expect(within(card).getByTestId('trigger-words').textContent).toBe(`When a file matching *.pdf lands in or changes in ${folder}, once per batch (when name contains "invoice")`);
    // A source's state is on the card from the start (whatever it is now, it is one of the three, as the API says).
    await waitFor(() => expect(within(card).getByTestId('source-state').textContent).toMatch(/^. (listening|checking|failing)$/));

    fireEvent.click(within(card).getByRole('button', { name: 'Edit' }));
    const edit = within(screen.getByRole('form', { name: 'Edit File invoices' }));
    expect(edit.getByRole<HTMLInputElement>('radio', { name: 'A folder' }).checked).toBe(true);
    expect(edit.getByLabelText<HTMLInputElement>('Folder').value).toBe(folder);
    expect(edit.getByLabelText<HTMLInputElement>('Files').value).toBe('*.pdf');
    expect(edit.getByRole<HTMLInputElement>('checkbox', { name: 'Changed' }).checked).toBe(true);
    expect(edit.getByRole<HTMLInputElement>('checkbox', { name: 'Deleted' }).checked).toBe(false);
    expect(within(edit.getByRole('group', { name: 'Condition 1' })).getByLabelText<HTMLInputElement>('Value').value).toBe('invoice');
    expect(edit.getByLabelText<HTMLSelectElement>('Events while Steward was off').value).toBe('latest');
    // Back to a schedule: `all` is not offered there, and the save is accepted.
    fireEvent.click(edit.getByRole('radio', { name: 'On a schedule' }));
    expect(edit.getByLabelText<HTMLSelectElement>('Missed runs').value).toBe('latest');
    type(edit.getByLabelText('Prompt'), 'File the invoices.');
    fireEvent.click(edit.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit File invoices' })).toBeNull());
    expect(await automationNamed('File invoices')).toMatchObject({ cronExpression: '0 9 * * 1-5', trigger: null, source: null });
    disconnect();
  }, 60_000);

  it('refuses what the contract refuses, beside each field, and saves nothing', async () => {
    const before = (await t.api('GET', '/api/automations')).body.automations.length;
    const { form, disconnect } = await openForm();
    type(form.getByLabelText('Name'), 'Refused');
    type(form.getByLabelText('Prompt'), 'Anything.');
    const create = () => fireEvent.click(form.getByRole('button', { name: 'Create automation' }));

    fireEvent.click(form.getByRole('radio', { name: 'A folder' }));
    fireEvent.click(form.getByRole('checkbox', { name: 'Created' }));
    type(form.getByLabelText('Settle time (milliseconds)'), '5s');
    fireEvent.click(form.getByRole('button', { name: 'Add a condition' }));
    create();
    expect(errorOf(form.getByLabelText('Folder'))).toBe('Give the folder to watch, e.g. ~/Invoices.');
    expect(within(form.getByRole('group', { name: 'Changes' })).getByRole('alert').textContent).toBe('Tick at least one change.');
    expect(errorOf(form.getByLabelText('Settle time (milliseconds)'))).toMatch(/^Settle time \(milliseconds\) /);
    const condition = within(form.getByRole('group', { name: 'Condition 1' }));
    expect(errorOf(condition.getByLabelText('Field'))).toBe('Name the field this condition tests, e.g. name.');
    // The first problem has the focus.
    expect(document.activeElement).toBe(form.getByLabelText('Folder'));
    // Fixed as one types: the folder's error goes once it is given.
    type(form.getByLabelText('Folder'), '~/Invoices');
    expect(errorOf(form.getByLabelText('Folder'))).toBeUndefined();

    fireEvent.click(form.getByRole('radio', { name: 'Mail' }));
    type(form.getByLabelText('IMAP server'), 'imap.example.com');
    type(form.getByLabelText('User'), 'me@example.com');
    type(form.getByLabelText('Port'), '70000');
    type(form.getByLabelText('After a run succeeds'), 'move');
    create();
    expect(errorOf(form.getByLabelText('Password'))).toBe('Choose the secret holding the password.');
    // The password is stored without leaving the form (leaving it threw away what was typed).
    fireEvent.click(form.getByRole('button', { name: 'Store a new secret…' }));
    const newSecret = within(form.getByRole('group', { name: 'A new secret' }));
    type(newSecret.getByLabelText('Secret name'), 'form-mail-password');
    type(newSecret.getByLabelText('Value'), 'hunter2-form');
    fireEvent.click(newSecret.getByRole('button', { name: 'Store secret' }));
    await waitFor(() => expect(form.getByLabelText<HTMLSelectElement>('Password').value).toBe('form-mail-password'));
    expect(form.getByLabelText<HTMLInputElement>('IMAP server').value).toBe('imap.example.com');
    expect((await t.api('GET', '/api/secrets')).body.secrets.map((secret: { name: string }) => secret.name)).toContain('form-mail-password');
    expect(errorOf(form.getByLabelText('Port'))).toMatch(/^Port /);
    expect(errorOf(form.getByLabelText('Move to'))).toMatch(/^Move to: is required when afterRun is move\.$|^Move to /);
    // The filter is the event's, kept across event kinds.
    expect(form.getByRole('group', { name: 'Condition 1' })).toBeTruthy();
    fireEvent.click(form.getByRole('button', { name: 'Remove condition 1' }));

    fireEvent.click(form.getByRole('radio', { name: 'A feed' }));
    type(form.getByLabelText('Feed URL'), 'ftp://example.com/feed');
    create();
    expect(errorOf(form.getByLabelText('Feed URL'))).toBe('Feed URL must be an http:// or https:// URL.');

    fireEvent.click(form.getByRole('radio', { name: 'Every' }));
    type(form.getByLabelText('Interval'), '0');
    create();
    expect(errorOf(form.getByLabelText('Interval'))).toMatch(/^Interval /);

    fireEvent.click(form.getByRole('radio', { name: 'Once' }));
    create();
    expect(errorOf(form.getByLabelText('Date and time'))).toBe('Give the date and time.');
    // In the past: the server's refusal, beside the field.
    type(form.getByLabelText('Date and time'), '2020-01-01T09:00');
    create();
    await waitFor(() => expect(errorOf(form.getByLabelText('Date and time'))).toMatch(/is in the past/));
    expect((await t.api('GET', '/api/automations')).body.automations).toHaveLength(before);
    disconnect();
  }, 60_000);

  it('makes once and every with their next runs, and says them on the card', async () => {
    const { form, disconnect } = await openForm();
    type(form.getByLabelText('Name'), 'New year');
    type(form.getByLabelText('Prompt'), 'Happy new year.');
    type(form.getByLabelText('Timezone'), 'Europe/Berlin');
    fireEvent.click(form.getByRole('radio', { name: 'Once' }));
    type(form.getByLabelText('Date and time'), '2031-01-01T00:00');
    expect(within(form.getByRole('list', { name: 'Runs at' })).getAllByRole('listitem')).toHaveLength(1);
    fireEvent.click(form.getByRole('button', { name: 'Create automation' }));
    const once = await screen.findByRole('article', { name: 'New year' });
    expect(within(once).getByTestId('trigger-words').textContent).toBe('Once, at 2031-01-01 00:00 Europe/Berlin');
    expect(within(once).getByTestId('next-run').textContent).not.toBe('—');
    expect((await automationNamed('New year'))!.nextRuns).toEqual(['2030-12-31T23:00:00.000Z']);

    fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
    const second = within(screen.getByRole('form', { name: 'New automation' }));
    type(second.getByLabelText('Name'), 'Stretch');
    type(second.getByLabelText('Prompt'), 'Stand up.');
    fireEvent.click(second.getByRole('radio', { name: 'Every' }));
    type(second.getByLabelText('Interval'), '90');
    expect(within(second.getByRole('list', { name: 'Next 5 runs' })).getAllByRole('listitem')).toHaveLength(5);
    fireEvent.click(second.getByRole('button', { name: 'Create automation' }));
    const every = await screen.findByRole('article', { name: 'Stretch' });
    expect(within(every).getByTestId('trigger-words').textContent).toMatch(/^Every 90 minutes( from .*)?$/);
    const saved = (await automationNamed('Stretch'))!;
    expect(saved.trigger).toMatchObject({ every: { minutes: 90 } });
    expect(saved.nextRuns).toHaveLength(5);
    expect(Date.parse(saved.nextRuns[1]) - Date.parse(saved.nextRuns[0])).toBe(90 * 60_000);
    disconnect();
  }, 60_000);

  it('shows a source that cannot connect failing in full on its card, with its error and since when', async () => {
    await t.api('PUT', '/api/secrets/MAIL_PASSWORD', { value: 'wrong' });
    const port = await closedPort();
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Deaf inbox', prompt: 'Read {{event.subject}}.', trigger: { mail: { host: '127.0.0.1', port, tls: false, user: 'me', password: 'MAIL_PASSWORD' } } })).body;
    // The API says it is failing first: the card must say the same words.
    let error = '';
    await waitFor(async () => {
      const { source } = (await t.api('GET', `/api/automations/${automation.id}`)).body.automation;
      expect(source.state).toBe('failing');
      error = source.error;
    }, { timeout: 10_000 });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    const card = within(screen.getByRole('article', { name: 'Deaf inbox' }));
    expect(card.getByTestId('trigger-words').textContent).toBe('When mail arrives in INBOX of me at 127.0.0.1');
    expect(card.getByTestId('source-state').textContent).toBe('✕ failing');
    const alert = card.getByTestId('source-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toMatch(/^Not listening since .+: /);
    expect(alert.textContent).toContain(error.replace(/\.$/, ''));
    expect(card.getByTestId('source-line').textContent).toMatch(/last event .* · last check /);
    // Said at the top of the list too: a card below the fold is not enough.
    const banner = screen.getByTestId('not-listening');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.textContent).toMatch(/^1 automations? (is|are) not listening: Deaf inbox\./);
    fireEvent.click(within(banner).getByRole('button', { name: 'Deaf inbox' }));
    expect(document.activeElement).toBe(screen.getByRole('article', { name: 'Deaf inbox' }));
    disconnect();
  }, 60_000);

  it('checks what would have fired: the source’s answer, or its refusal in its words', async () => {
    const { client, unregister } = ipcClientOf(t);
    const asked: unknown[] = [];
    let refuse = false;
    const store = createAppStore({
      subscribe: (listener) => client.subscribe(listener),
      call: (async (name: Parameters<StewardClient['call']>[0], input?: CallInput) => {
        if (name === 'automations.preview') {
          asked.push(input?.body);
          if (refuse) throw new ApiError('source_unreachable', 'The folder /nowhere does not exist.');
        }
        return client.call(name, input);
      }) as StewardClient['call'],
    });
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    fireEvent.click(screen.getByRole('button', { name: 'New automation' }));
    const form = within(screen.getByRole('form', { name: 'New automation' }));
    fireEvent.click(form.getByRole('radio', { name: 'A folder' }));
    const preview = within(form.getByRole('region', { name: 'What would have fired' }));
    // Nothing is asked while typing, nor with a folder missing: the field says why, and so does the
    // line beside the button pressed (the field may be far above it).
    fireEvent.click(preview.getByRole('button', { name: 'Check' }));
    expect(asked).toEqual([]);
    expect(errorOf(form.getByLabelText('Folder'))).toBe('Give the folder to watch, e.g. ~/Invoices.');
    expect(preview.getByTestId('preview-unready').textContent).toBe('Fix the fields marked above first, then press Check.');
    const empty = tempDir('steward-watch-empty-');
    type(form.getByLabelText('Folder'), empty);
    expect(asked).toEqual([]);
    fireEvent.click(preview.getByRole('button', { name: 'Check' }));
    await preview.findByTestId('preview-empty');
    fs.writeFileSync(`${empty}/already-here.csv`, 'a,b\n');
    fireEvent.click(preview.getByRole('button', { name: 'Check' }));
    // What is there already is listed, and said not to run: a new trigger starts from its baseline.
    expect((await preview.findByRole('list', { name: 'Would have fired' })).textContent).toContain('already-here.csv');
    expect(preview.getByTestId('preview-baseline').textContent).toMatch(/They will not run: a new trigger starts from what is there/);
    fs.rmSync(`${empty}/already-here.csv`);
    asked.length = 0;
    fireEvent.click(preview.getByRole('button', { name: 'Check' }));
    await preview.findByTestId('preview-empty');
    expect(asked).toEqual([{ trigger: { watch: expect.objectContaining({ path: empty }) }, timezone: expect.any(String) }]);
    type(form.getByLabelText('Files'), '*.csv');
    expect(preview.getByText('Changed since this check: press Check again.')).toBeTruthy();
    refuse = true;
    fireEvent.click(preview.getByRole('button', { name: 'Check' }));
    expect((await preview.findByTestId('preview-error')).textContent).toBe('Could not check: The folder /nowhere does not exist.');
    fs.rmSync(empty, { recursive: true, force: true });
    unregister();
  }, 60_000);

  it('says when runs of the chosen instance cannot read the watched folder', async () => {
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'cat'] };
    const { instance: boxed } = (await t.api('POST', '/api/instances', { name: 'Boxed', agent, sandbox: { mode: 'sandbox', readAllow: ['~/Docs'], readDeny: ['~/Docs/private'] } })).body;
    const { instance: open } = (await t.api('POST', '/api/instances', { name: 'Open', agent, sandbox: { mode: 'off' } })).body;
    const { form, disconnect } = await openForm();
    type(form.getByLabelText('Instance'), boxed.id);
    fireEvent.click(form.getByRole('radio', { name: 'A folder' }));
    const field = form.getByLabelText('Folder');
    type(field, '~/Invoices');
    expect(warningOf(field)).toBe("Runs of this instance cannot read ~/Invoices: add it to the instance's folders (Also readable, in its sandbox).");
    type(field, '~/Docs/2026/');
    expect(warningOf(field)).toBeUndefined();
    type(field, '~/Docs/private/keys');
    expect(warningOf(field)).toMatch(/^Runs of this instance cannot read ~\/Docs\/private\/keys: its sandbox hides ~\/Docs\/private\./);
    type(field, `${boxed.workspaceDir}/inbox`);
    expect(warningOf(field)).toBeUndefined();
    type(field, '~/Invoices');
    type(form.getByLabelText('Instance'), open.id);
    expect(warningOf(field)).toBeUndefined();
    disconnect();
  }, 60_000);

  it('names in History the event each run was started by, and the events that started none', async () => {
    const { automation } = (await t.api('POST', '/api/automations', { name: 'Watched', prompt: 'File {{event.name}}.', enabled: false, trigger: { watch: { path: folder } } })).body;
    const { run } = (await t.api('POST', `/api/automations/${automation.id}/run`)).body;
    const at = new Date().toISOString();
    t.core.store.fires.record({ automationId: automation.id, dueAt: at, eventKey: 'a', state: 'fired', reason: null, detail: null, event: 'invoice-7.pdf created in ~/Invoices', runId: run.id, recordedAt: at });
    t.core.store.fires.record({ automationId: automation.id, dueAt: at, eventKey: 'b', state: 'skipped', reason: 'filter', detail: 'Not run: name does not contain "invoice".', event: 'notes.txt created in ~/Invoices', runId: null, recordedAt: at });
    const { store, disconnect } = connectStore(t);
    await Promise.all([store.getState().loadInstances(), store.getState().loadAutomations()]);
    renderWith(store, <Automations />);
    const card = within(screen.getByRole('article', { name: 'Watched' }));
    fireEvent.click(card.getByRole('button', { name: 'History' }));
    const history = within(await card.findByRole('region', { name: 'History of Watched' }));
    expect((await history.findByTestId('run-event')).textContent).toBe('invoice-7.pdf created in ~/Invoices');
    const notRun = within(history.getByRole('list', { name: 'Events that started no run' }));
    expect(notRun.getAllByRole('listitem')).toHaveLength(1);
    expect(notRun.getByRole('listitem').textContent).toContain('notes.txt created in ~/Invoices');
    expect(notRun.getByRole('listitem').textContent).toContain('Not run: name does not contain "invoice".');
    disconnect();
  }, 60_000);
});

describe('the Agenda', () => {
  it('shows the fires of an every automation and of a once one', async () => {
    const { client, unregister } = ipcClientOf(t);
    const soon = new Date(Date.now() + 3 * 3_600_000);
    const wall = (date: Date) => date.toISOString().slice(0, 16);
    await t.api('POST', '/api/automations', { name: 'Every four hours', prompt: 'Look.', timezone: 'UTC', trigger: { every: { hours: 4 } } });
    await t.api('POST', '/api/automations', { name: 'Just once', prompt: 'Once.', timezone: 'UTC', trigger: { at: wall(soon) } });
    const store = createAppStore(client);
    renderWith(store, <Agenda />);
    const table = await screen.findByRole('table');
    const rowOf = (name: string) => within(table).getByRole('rowheader', { name }).closest('tr')!;
    await waitFor(() => expect(rowOf('Every four hours')).toBeTruthy());
    // Eight days of every four hours: a mark (or a count) in each day; the once one, one mark.
    expect(within(rowOf('Every four hours')).getAllByText(/due/).length).toBeGreaterThan(0);
    expect(rowOf('Just once').textContent).toMatch(/due/);
    unregister();
  }, 60_000);
});

