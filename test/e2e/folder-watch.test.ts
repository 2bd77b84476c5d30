// End to end at 390 px, in real Chromium against a real daemon: a person makes a folder-watch
// automation by clicking and typing (A folder, its path and files, a condition), sees the card say
// in words what it waits for and its source turn listening, drops a file into the folder and sees
// the run it started appear, named by its event, in the card's History. And the When section by
// keyboard alone: the kinds by arrow keys, the folder's fields by Tab, a condition added by Enter.
// The page never scrolls sideways. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { tempDir } from '../support/temp';
import { waitFor } from '../support/wait';
import { focusedName, sidewaysScroll } from '../support/page-reading';

const e2e = useE2e({ name: 'folder-watch', context: { viewport: { width: 390, height: 844 } } });
const { skip, api } = e2e;
let page: Page;
let folder: string;
let filerId: string;

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  folder = tempDir('steward-e2e-watched-');
  // The agent: a command that says what it was asked (the test is about what starts it).
  const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Filer', agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo "filed: $(cat)"'] }, sandbox: { mode: 'off' } });
  // Probed first: a busy machine may take a while, and one not ready is offered as "Filer (not ready)".
  filerId = instance.id;
  await waitFor(async () => (await api<{ instance: { status: string } }>('GET', `/api/instances/${instance.id}`)).instance.status, { until: (status) => status === 'running', timeoutMs: 60_000, what: 'the instance Filer running' });
}, 90_000);
afterAll(() => {
  if (folder) fs.rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(skip)('a folder watch made by a person at 390 px', () => {
  it('is made by clicking and typing, says what it waits for, listens, and runs for a dropped file', async () => {
    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('File invoices');
    await form.getByLabel('Prompt', { exact: true }).fill('File {{event.name}}');
    await form.getByRole('radio', { name: 'A folder' }).check();
    await form.getByLabel('Folder', { exact: true }).fill(folder);
    await form.getByLabel('Files', { exact: true }).fill('*.pdf');
    await form.getByRole('button', { name: 'Add a condition' }).click();
    const condition = form.getByRole('group', { name: 'Condition 1' });
    await condition.getByLabel('Field', { exact: true }).fill('name');
    await condition.getByLabel('Value', { exact: true }).fill('invoice');
    await form.getByLabel('Instance', { exact: true }).selectOption(filerId); // by its id: its label gains " (not ready)" while a busy machine probes it again
    // What its prompt may quote, for this kind.
    expect(await form.getByTestId('event-fields').textContent()).toContain('{{event.name}}');
    // The Check reads the folder now: empty, nothing would have fired.
    await form.getByRole('button', { name: 'Check' }).click();
    await expect.poll(() => form.getByTestId('preview-empty').isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await sidewaysScroll(page), 'sideways scroll in the form').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'folder-watch-390-form.png'), fullPage: true });
    await form.getByRole('button', { name: 'Create automation' }).click();

    const card = page.getByRole('article', { name: 'File invoices' });
    await expect.poll(() => card.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await card.getByTestId('trigger-words').textContent()).toBe(`When a file matching *.pdf lands in ${folder} (when name contains "invoice")`);
    // Its source turns listening on the card by itself (the card reads it again while it is shown).
    await expect.poll(() => card.getByTestId('source-state').textContent(), { timeout: 30_000 }).toBe('● listening');
    expect(await card.getByTestId('source-error').count()).toBe(0);
    await page.screenshot({ path: path.join(artifacts, 'folder-watch-390-listening.png'), fullPage: true });

    // A file that fails the condition starts nothing; one that passes starts a run.
    fs.writeFileSync(path.join(folder, 'notes.pdf'), 'not an invoice');
    fs.writeFileSync(path.join(folder, 'invoice-7.pdf'), '%PDF-1.4 invoice 7');
    await card.getByRole('button', { name: 'History' }).click();
    const history = card.getByRole('region', { name: 'History of File invoices' });
    await expect.poll(() => history.getByTestId('run-event').allTextContents(), { timeout: 30_000 }).toEqual([expect.stringContaining('invoice-7.pdf')]);
    await expect.poll(() => history.getByRole('list', { name: 'Events that started no run' }).textContent(), { timeout: 20_000 }).toContain('notes.pdf');
    // The run is there and did what its agent does with the prompt: the file's name in it, fenced as text from outside.
    await history.getByRole('link').first().click();
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 30_000 }).toMatch(/filed: File [^]*-----BEGIN UNTRUSTED DATA [0-9a-f]{16}-----[^]*invoice-7\.pdf/);
    expect(await transcript.textContent()).toContain('invoice-7.pdf');
    expect(await transcript.textContent()).not.toContain('notes.pdf');
    expect(await sidewaysScroll(page), 'sideways scroll on the run').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'folder-watch-390-run.png'), fullPage: true });
  }, 120_000);

  it('lets the When section be filled by keyboard alone', async () => {
    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    await page.reload();
    await page.getByRole('button', { name: 'New automation' }).first().focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'New automation' });
    await expect.poll(() => focusedName(page)).toBe('Name');
    await page.keyboard.type('By keyboard');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Prompt');
    await page.keyboard.type('Look at {{event.path}}');
    await page.keyboard.press('Tab');
    // The kinds are one radio group: Tab lands on the chosen one, arrows move the choice.
    expect(await focusedName(page)).toBe('On a schedule');
    for (const next of ['Once', 'Every', 'After another automation', 'A folder']) {
      await page.keyboard.press('ArrowRight');
      expect(await focusedName(page)).toBe(next);
    }
    expect(await form.getByRole('radio', { name: 'A folder' }).isChecked()).toBe(true);
    // Tab leaves the group for the folder's first field.
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Folder');
    await page.keyboard.type('~/Invoices');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Files');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Created');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Changed');
    await page.keyboard.press('Space');
    expect(await form.getByRole('checkbox', { name: 'Changed' }).isChecked()).toBe(true);
    // On to "Add a condition" and press it: a row comes, its field reached by Shift+Tab.
    for (let step = 0; step < 12 && (await focusedName(page)) !== 'Add a condition'; step += 1) await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Add a condition');
    await page.keyboard.press('Enter');
    await expect.poll(() => form.getByRole('group', { name: 'Condition 1' }).isVisible()).toBe(true);
    for (let step = 0; step < 6 && (await focusedName(page)) !== 'Field'; step += 1) await page.keyboard.press('Shift+Tab');
    expect(await focusedName(page)).toBe('Field');
    await page.keyboard.type('name');
    // Creating with the condition's value missing: refused, the focus on the first problem.
    await form.getByRole('button', { name: 'Create automation' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedName(page)).toBe('Value');
    await page.keyboard.type('invoice');
    await form.getByRole('button', { name: 'Create automation' }).focus();
    await page.keyboard.press('Enter');
    const card = page.getByRole('article', { name: 'By keyboard' });
    await expect.poll(() => card.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await card.getByTestId('trigger-words').textContent()).toBe('When a file lands in or changes in ~/Invoices (when name contains "invoice")');
  }, 90_000);

  it('stores a mail password without leaving the form, and Check says beside itself what to fix', async () => {
    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Inbox');
    await form.getByRole('radio', { name: 'Mail' }).check();
    await form.getByRole('button', { name: 'Check' }).click();
    expect(await form.getByTestId('preview-unready').textContent()).toBe('Fix the fields marked above first, then press Check.');
    await form.getByLabel('IMAP server', { exact: true }).fill('imap.example.com');
    await form.getByRole('button', { name: 'Store a new secret…' }).click();
    const secret = form.getByRole('group', { name: 'A new secret' });
    await secret.getByLabel('Secret name', { exact: true }).fill('e2e-mail-password');
    await secret.getByLabel('Value', { exact: true }).fill('hunter2-e2e');
    await secret.getByRole('button', { name: 'Store secret' }).click();
    await expect.poll(() => form.getByLabel('Password', { exact: true }).inputValue(), { timeout: 10_000 }).toBe('e2e-mail-password');
    // What was typed before stays: the form was never left.
    expect(await form.getByLabel('IMAP server', { exact: true }).inputValue()).toBe('imap.example.com');
    expect((await api<{ secrets: { name: string }[] }>('GET', '/api/secrets')).secrets.map((each) => each.name)).toContain('e2e-mail-password');
    expect(await sidewaysScroll(page), 'sideways scroll with the new secret open').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'folder-watch-390-new-secret.png'), fullPage: true });
  }, 90_000);

  it('names an automation that is not listening at the top of the list, and its name brings its card', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    await api('POST', '/api/automations', { name: 'Deaf inbox', prompt: 'Read {{event.subject}}', trigger: { mail: { host: '127.0.0.1', port: closed, tls: false, user: 'me', password: 'e2e-mail-password' } } });
    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    const banner = page.getByTestId('not-listening');
    // The keyboard test's folder (~/Invoices) does not exist either: both are named.
    await expect.poll(() => banner.textContent().catch(() => ''), { timeout: 30_000 }).toContain('Deaf inbox');
    await banner.getByRole('button', { name: 'Deaf inbox' }).click();
    // Still on Automations (the view is the hash), with the card in view and focused.
    expect(new URL(page.url()).hash).toBe('#/automations');
    const card = page.getByRole('article', { name: 'Deaf inbox' });
    expect(await card.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true);
    expect(await card.isVisible()).toBe(true);
    expect(await sidewaysScroll(page), 'sideways scroll with the banner').toBeLessThanOrEqual(0);
  }, 90_000);
});
