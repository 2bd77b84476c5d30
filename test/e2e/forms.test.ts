// End to end: forms that say what is wrong, in real Chromium on a real daemon, clicked as a person
// clicks them. A refused submit (the form's own check or the server's answer) moves the focus to the
// first field in error and scrolls it into view; its error is red (readable in both themes) and in
// plain words; an invalid cron and an unknown {{placeholder}} stop the submit before anything is
// sent (checked through the API: nothing was created). Then an automation's card shows its retry
// policy and budget, and its History says which runs were started by hand and which by the schedule.
// Skipped, with a line naming what to install, where Chromium is missing.
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'forms' });
const { skip, api } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
let page: Page;
let origin: string;
let instanceId: string;

// Functions given to evaluate run in the page; the node tsconfig has no DOM types, so they cast globalThis.
interface PageGlobals {
  document: { activeElement: unknown };
  innerHeight: number;
  getComputedStyle(this: void, element: unknown): { color: string; backgroundColor: string };
}

const isFocused = (field: Locator) => field.evaluate((element) => element === (globalThis as unknown as PageGlobals).document.activeElement);
const inViewport = (field: Locator) => field.evaluate((element) => {
  const box = element.getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= (globalThis as unknown as PageGlobals).innerHeight;
});

/** The error a field's aria-describedby points at (its role="alert" line). */
async function errorOf(field: Locator): Promise<Locator> {
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  for (const id of ids) {
    const note = page.locator(`[id="${id}"]`);
    if ((await note.getAttribute('role')) === 'alert') return note;
  }
  throw new Error(`no error is tied to the field (aria-describedby="${ids.join(' ')}")`);
}

/** WCAG contrast of the element's text against the first opaque background behind it. */
const contrastOf = (note: Locator) => note.evaluate((element) => {
  const { getComputedStyle } = globalThis as unknown as PageGlobals;
  const rgb = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const luminance = ([r, g, b]: number[]) => {
    const [lr, lg, lb] = [r, g, b].map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  };
  let behind: any = element;
  let background = 'rgba(0, 0, 0, 0)';
  while (behind) {
    background = getComputedStyle(behind).backgroundColor;
    const parts = rgb(background);
    if (parts.length === 3 || parts[3] === 1) break;
    behind = behind.parentElement;
  }
  if (!behind) background = 'rgb(255, 255, 255)';
  const text = rgb(getComputedStyle(element).color);
  const [a, b] = [luminance(text), luminance(rgb(background))].sort((x, y) => y - x);
  return { color: text, ratio: (a + 0.05) / (b + 0.05) };
});

/** Red: the red channel well above green and blue. */
const isRed = ([r, g, b]: number[]) => r > 150 && r > g * 1.5 && r > b * 1.5;

async function expectRedInBothThemes(note: Locator) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { color, ratio } = await contrastOf(note);
    expect(isRed(color), `${colorScheme}: rgb(${color.join(', ')})`).toBe(true);
    expect(ratio, colorScheme).toBeGreaterThanOrEqual(4.5);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
  ({ instance: { id: instanceId } } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] }, sandbox: unsandboxed }));
}, 120_000);

describe.skipIf(skip)('forms that say what is wrong', () => {
  let everyMinute: string;

  it('a GitHub webhook without its secret: Create focuses the secret, scrolled into view, its error red and in words', async () => {
    // Made first: its schedule fires while the other tests run (History, below).
    ({ automation: { id: everyMinute } } = await api<{ automation: { id: string } }>('POST', '/api/automations', { name: 'Every minute', prompt: 'Tick.', cronExpression: '* * * * *', instanceId, retry: { attempts: 2, backoffSeconds: 30, on: ['rate_limit', 'network'] }, budget: { usdPerDay: 1, tokensPerDay: 500_000 } }));
    await page.goto(`${origin}/#/webhooks`);
    await page.getByRole('button', { name: 'New webhook' }).click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Name', { exact: true }).fill('CI failures');
    await form.getByLabel('Sender').selectOption('github');
    const secret = form.getByLabel('Signing secret');
    expect(await secret.inputValue()).toBe('');
    // The button is at the bottom of the long form: where it is, the secret is out of sight.
    const create = form.getByRole('button', { name: 'Create webhook' });
    await create.scrollIntoViewIfNeeded();
    expect(await inViewport(secret)).toBe(false);
    await create.click();
    await expect.poll(() => isFocused(secret)).toBe(true);
    await expect.poll(() => inViewport(secret)).toBe(true);
    expect(await secret.getAttribute('aria-invalid')).toBe('true');
    const error = await errorOf(secret);
    expect(await error.isVisible()).toBe(true);
    expect(await error.textContent()).toBe('Type the signing secret, or choose None: GitHub (X-Hub-Signature-256) without its secret would check nothing.');
    await expectRedInBothThemes(error);
    await page.screenshot({ path: path.join(artifacts, 'forms-webhook-secret.png') });
    expect((await api<{ webhooks: unknown[] }>('GET', '/api/webhooks')).webhooks).toEqual([]);

    // Typed, the form saves.
    await secret.fill('a-long-enough-secret');
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(async () => (await api<{ webhooks: { name: string }[] }>('GET', '/api/webhooks')).webhooks.map((each) => each.name)).toEqual(['CI failures']);
  });

  it('an automation with an invalid cron: shown red as one types, Create sends nothing and focuses the cron', async () => {
    await page.goto(`${origin}/#/automations`);
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Nightly');
    await form.getByLabel('Prompt').fill('Sum up the night.');
    const cron = form.getByLabel('Schedule (cron)');
    await cron.fill('61 * * * *');
    const error = await errorOf(cron);
    expect(await error.textContent()).toMatch(/^Invalid cron expression: .*minute/);
    await expectRedInBothThemes(error);
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => isFocused(cron)).toBe(true);
    expect(await inViewport(cron)).toBe(true);
    // Nothing reached the API.
    expect((await api<{ automations: { name: string }[] }>('GET', '/api/automations')).automations.map((each) => each.name)).toEqual(['Every minute']);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a prompt with an unknown {{placeholder}} is flagged before saving, and not saved', async () => {
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Typo');
    const prompt = form.getByLabel('Prompt');
    await prompt.fill('Post {{nosuch}} to the channel.');
    // Before any press: the field says so.
    const error = await errorOf(prompt);
    expect(await error.textContent()).toMatch(/^Unknown placeholder \{\{nosuch\}\}: it would be sent as written\./);
    expect(await prompt.getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => isFocused(prompt)).toBe(true);
    expect((await api<{ automations: { name: string }[] }>('GET', '/api/automations')).automations.map((each) => each.name)).toEqual(['Every minute']);
    await form.getByRole('button', { name: 'Cancel' }).click();
  });

  it('a refusal by the server (an empty name) focuses the name, in plain words', async () => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    const name = form.getByLabel('Name', { exact: true });
    await form.getByLabel('Prompt').fill('Sum up the day.');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => isFocused(name)).toBe(true);
    expect(await inViewport(name)).toBe(true);
    const error = await errorOf(name);
    expect(await error.textContent()).toBe('Name is required.');
    await expectRedInBothThemes(error);
    await form.getByRole('button', { name: 'Cancel' }).click();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('an API key without a name: the refusal shows under the name, in its label\'s words, which takes the focus', async () => {
    await page.goto(`${origin}/#/settings`);
    const form = page.getByRole('form', { name: 'New API key' });
    await form.getByRole('button', { name: 'Create key' }).click();
    const name = form.getByLabel('Key name');
    await expect.poll(() => isFocused(name)).toBe(true);
    expect(await inViewport(name)).toBe(true);
    expect(await (await errorOf(name)).textContent()).toBe('Key name is required.');
  });

  it('the card shows its retry policy and budget; History says by hand and scheduled', async () => {
    await page.goto(`${origin}/#/automations`);
    const card = page.getByRole('article', { name: 'Every minute' });
    expect(await card.getByTestId('policies').textContent()).toBe('Retry: Up to 2 retries, the first after 30 s, on: rate limited (http 429), network failure · Budget: $1.00 a day · 500,000 tokens a day');
    await card.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/#\/runs\/run_/);
    const byHand = /#\/runs\/(run_\w+)/.exec(page.url())![1];
    await page.goto(`${origin}/#/automations`);
    await card.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('region', { name: 'History of Every minute' });
    const originOf = (runId: string) => history.locator(`li:has(a[href="#/runs/${runId}"])`).getByTestId('run-origin');
    await expect.poll(async () => (await originOf(byHand).count()) > 0, { timeout: 10_000 }).toBe(true);
    expect((await originOf(byHand).textContent())?.trim()).toBe('by hand');
    // The schedule fires within the minute.
    await expect.poll(async () => (await history.getByTestId('run-origin').allTextContents()).map((each) => each.trim()), { timeout: 75_000, interval: 1_000 }).toContain('scheduled');
    await page.screenshot({ path: path.join(artifacts, 'forms-automation-history.png'), fullPage: true });
    await api('PUT', `/api/automations/${everyMinute}`, { enabled: false });
  }, 120_000);
});
