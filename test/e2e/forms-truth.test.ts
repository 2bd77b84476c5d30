// End to end, in real Chromium on a real daemon, clicked as a person clicks: forms that never say
// "saved" when nothing was, never store what a refusal refused, never leave a fixed mistake red,
// and show the app's own errors instead of the browser's bubbles. Checked through the API after.
// Skipped, with a line naming what to install, where Chromium is missing.
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'forms-truth', context: { viewport: { width: 390, height: 844 } } });
const { skip, api } = e2e;
let page: Page;
let origin: string;

interface PageGlobals { document: { activeElement: unknown } }
const isFocused = (field: Locator) => field.evaluate((element) => element === (globalThis as unknown as PageGlobals).document.activeElement);

/** The error line tied to a field by aria-describedby, or null when it has none. */
async function errorText(field: Locator): Promise<string | null> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  for (const id of ids) {
    const note = page.locator(`[id="${id}"]`);
    if ((await note.getAttribute('role')) === 'alert') return note.textContent();
  }
  return null;
}

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
});

describe.skipIf(skip)('forms that tell the truth', () => {
  it('Save MCP servers with the Add form open: a bad name is shown and focused, nothing saved; a good one is saved', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('button', { name: 'Add MCP server' }).click();
    const form = page.getByRole('group', { name: 'New MCP server' });
    const name = form.getByLabel('Server name');
    // The form that opens takes the focus.
    await expect.poll(() => isFocused(name)).toBe(true);
    await name.fill('bad name!!');
    await form.getByLabel('Command').fill('npx');
    await page.getByRole('button', { name: 'Save MCP servers' }).click();
    await expect.poll(() => isFocused(name)).toBe(true);
    expect(await errorText(name)).toMatch(/^Use 1 to 32 lowercase letters/);
    expect(await page.getByText('MCP servers saved.').count()).toBe(0);
    expect((await api<{ settings: { mcpServers: unknown[] } }>('GET', '/api/settings')).settings.mcpServers).toEqual([]);

    await name.fill('github');
    await page.getByRole('button', { name: 'Save MCP servers' }).click();
    await expect.poll(async () => (await api<{ settings: { mcpServers: { name: string; command: string }[] } }>('GET', '/api/settings')).settings.mcpServers.map((each) => `${each.name} ${each.command}`)).toEqual(['github npx']);
    expect(await page.getByText('MCP servers saved.').isVisible()).toBe(true);
  });

  it('a remote at this Steward itself: Test connection and Add say so under the URL, and no key is stored', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('button', { name: 'Add remote' }).click();
    const form = page.getByRole('form', { name: 'Add a remote Steward' });
    await form.getByLabel('Remote name').fill('Me');
    const url = form.getByLabel('Remote URL');
    await url.fill(origin);
    await form.getByLabel('API key').fill('stw_not_a_real_key_but_long_enough');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => errorText(url)).toBe('That address is this Steward itself.');
    expect(await form.getByText('connected').count()).toBe(0);
    await form.getByRole('button', { name: 'Add remote' }).click();
    await expect.poll(() => isFocused(url)).toBe(true);
    expect(await errorText(url)).toBe('That address is this Steward itself.');
    await form.getByRole('button', { name: 'Add remote' }).click();
    await expect.poll(() => isFocused(url)).toBe(true);
    expect((await api<{ secrets: unknown[] }>('GET', '/api/secrets')).secrets).toEqual([]);
    expect((await api<{ remotes: unknown[] }>('GET', '/api/remotes')).remotes).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a notification channel: the app says what a URL must be (no browser bubble), and a fixed name stops being red', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('button', { name: 'Add channel' }).click();
    const form = page.getByRole('form', { name: 'New notification channel' });
    const url = form.getByLabel('URL');
    await url.fill('not a url');
    await form.getByRole('button', { name: 'Add channel' }).click();
    // The server's answer, shown under a field and focused: the first problem, the name.
    const name = form.getByLabel('Channel name');
    await expect.poll(() => isFocused(name)).toBe(true);
    expect(await errorText(name)).toBe('Channel name is required.');
    await name.fill('Ops');
    expect(await errorText(name)).toBeNull();
    expect(await name.getAttribute('aria-invalid')).toBeNull();
    await form.getByRole('button', { name: 'Add channel' }).click();
    await expect.poll(() => isFocused(url)).toBe(true);
    expect(await errorText(url)).toMatch(/URL/);
    expect((await api<{ channels: unknown[] }>('GET', '/api/notification-channels')).channels).toEqual([]);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a form that opens takes the focus; Add argument focuses the new argument', async () => {
    await page.goto(`${origin}/#/settings`);
    await page.getByRole('button', { name: 'Add remote' }).click();
    await expect.poll(() => isFocused(page.getByRole('form', { name: 'Add a remote Steward' }).getByLabel('Remote name'))).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add MCP server' }).click();
    const form = page.getByRole('group', { name: 'New MCP server' });
    await form.getByRole('button', { name: 'Add argument' }).click();
    await expect.poll(() => isFocused(form.getByRole('textbox', { name: 'Argument 1', exact: true }))).toBe(true);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.goto(`${origin}/#/instances`);
    await page.getByRole('button', { name: 'New instance' }).click();
    await expect.poll(() => isFocused(page.getByRole('form', { name: 'New instance' }).getByLabel('Name', { exact: true }))).toBe(true);
  });

  it('an environment variable with a bad name: the error says what a name may be, with the field\'s label', async () => {
    const form = page.getByRole('form', { name: 'New instance' });
    await form.getByLabel('Name', { exact: true }).fill('Env');
    const env = form.getByLabel('Environment');
    await env.fill('NOT A VAR=x');
    await form.getByRole('button', { name: 'Create instance' }).click();
    await expect.poll(() => errorText(env)).toBe('Environment: "NOT A VAR" is not a variable name: letters, digits and _, not starting with a digit.');
    // A line without "=" is said at the field as it is typed, not dropped without a word.
    await env.fill('GOOD=1\nJUSTANAME');
    await expect.poll(() => errorText(env)).toBe('This line has no "=" and is not used: "JUSTANAME". Write NAME=value.');
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a confirmation takes the focus on its safe choice and gives it back; Escape on the Menu returns to its button', async () => {
    const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] }, sandbox: { mode: 'off', network: [], readDeny: [], writeAllow: [] } });
    await api('POST', '/api/automations', { name: 'Nightly', prompt: 'Tick.', cronExpression: '0 3 * * *', instanceId: instance.id });
    await page.goto(`${origin}/#/automations`);
    const card = page.getByRole('article', { name: 'Nightly' });
    await card.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => isFocused(card.getByRole('button', { name: 'Keep it' }))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(card.getByRole('button', { name: 'Delete' }))).toBe(true);
    expect((await api<{ automations: unknown[] }>('GET', '/api/automations')).automations).toHaveLength(1);

    const menu = page.getByRole('button', { name: /^Menu/ });
    await menu.click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').first().focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => isFocused(menu)).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
  });
});
