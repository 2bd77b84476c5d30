// End to end: the web UI, built from source, in real Chromium against a real headless daemon
// (`steward serve` as a child process). A user opens the login link, makes an agent and renames it,
// creates an automation and sees its next runs, creates a webhook and copies its URL, triggers it
// over HTTP, and watches the run and its activity arrive live. Screenshots of each main view are
// kept in test-artifacts/. Skipped, with a line naming what to install, where Chromium is missing
// (requirements.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebUi, launchChromium, loginLinkOf } from '../support/browser';
import { tempDir } from '../support/core';
import { type Server, root, startDaemon } from '../support/processes';
import { lacks } from '../support/requirements';

const artifacts = path.join(root, 'test-artifacts');
let daemon: Server;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let loginLink: string;
let dataDir: string;
let webRoot: string;

const skip = lacks('chromium');
const shot = (name: string) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

beforeAll(async () => {
  if (skip) return;
  webRoot = await buildWebUi();
  dataDir = tempDir('steward-e2e-');
  daemon = await startDaemon(dataDir, ['--port', '0'], { STEWARD_WEB_ROOT: webRoot });
  loginLink = loginLinkOf(daemon);
  browser = await launchChromium();
  page = await browser.context.newPage();
  fs.mkdirSync(artifacts, { recursive: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  for (const dir of [dataDir, webRoot]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('the web UI', () => {
  it('opens with the one-time login link, which then stops working', async () => {
    await page.goto(loginLink);
    await expect.poll(() => page.getByRole('heading', { name: 'Activity' }).isVisible()).toBe(true);
    await shot('activity-empty');
    const reused = await fetch(loginLink, { redirect: 'manual' });
    expect(reused.status).toBe(401);
  });

  it('creates an instance with a custom agent, shows its probe, and renames it', async () => {
    await page.getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('button', { name: 'New instance' }).click();
    const form = page.getByRole('form', { name: 'New instance' });
    await form.getByLabel('Name').fill('Echo');
    await form.getByLabel('Agent').selectOption('custom');
    await form.getByLabel('Command').fill('cat');
    await form.getByRole('button', { name: 'Create instance' }).click();
    const card = page.getByRole('article', { name: 'Echo' });
    // The probe runs on the server; its result reaches the card live.
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toContain('custom:cat');
    await card.getByRole('button', { name: 'Rename' }).click();
    await card.getByLabel('New name').fill('Parrot');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Parrot' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('article', { name: 'Parrot' }).textContent()).toContain('running');
    await shot('instances');
  });

  it('creates an automation: the cron helper describes it and lists the next 5 runs as one types', async () => {
    await page.getByRole('link', { name: 'Automations' }).click();
    await expect.poll(() => page.getByText('No automations yet').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'New automation' }).first().click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name').fill('Standup notes');
    await form.getByLabel('Prompt').fill('Summarise what changed since yesterday.');
    await form.getByLabel('Schedule (cron)').fill('30 8 * * 1-5');
    await form.getByLabel('Timezone').selectOption('Europe/Berlin');
    await expect.poll(() => form.getByTestId('cron-description').textContent()).toBe('At 08:30, Monday through Friday (Europe/Berlin)');
    expect(await form.getByRole('list', { name: 'Next 5 runs' }).getByRole('listitem').count()).toBe(5);
    await form.getByLabel('Schedule (cron)').fill('61 * * * *');
    await expect.poll(() => form.textContent()).toContain('minute');
    await form.getByRole('button', { name: 'Create automation' }).click();
    // The server's refusal shows next to the field it concerns.
    await expect.poll(() => form.getByRole('alert').first().textContent()).toMatch(/cron/i);
    await form.getByLabel('Schedule (cron)').fill('30 8 * * 1-5');
    await form.getByLabel('Instance').selectOption({ label: 'Parrot' });
    await form.getByRole('button', { name: 'Create automation' }).click();
    const card = page.getByRole('article', { name: 'Standup notes' });
    await expect.poll(() => card.isVisible()).toBe(true);
    expect(await card.getByTestId('next-run').textContent()).toMatch(/\d/);
    await shot('automations');
  });

  it('creates a webhook, copies its URL, triggers it over HTTP, and the run and its activity arrive live', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Name').fill('Deploys');
    await form.getByLabel('Prompt template').fill('A deploy finished');
    await expect.poll(() => form.getByRole('status').textContent()).toContain('no {{payload}}');
    await form.getByLabel('Prompt template').fill('Deploy report: {{payload}}');
    await form.getByLabel('Instance').selectOption({ label: 'Parrot' });
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const card = page.getByRole('article', { name: 'Deploys' });
    const url = (await card.getByTestId('trigger-url').textContent())!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/webhooks\/trigger\/\S+$/);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
    await card.getByRole('button', { name: 'Copy the trigger URL of Deploys' }).click();
    await expect.poll(() => card.getByRole('button', { name: 'Copy the trigger URL of Deploys' }).textContent()).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
    await shot('webhooks');

    await page.getByRole('link', { name: 'Activity' }).click();
    const stream = page.getByRole('log', { name: 'Activity stream' });
    const triggered = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"service":"api","version":"1.4.2"}' });
    expect(triggered.status).toBe(202);
    const { run } = (await triggered.json()) as { run: { id: string } };
    // No reload: the lines come over the live event stream.
    await expect.poll(() => stream.textContent(), { timeout: 15_000 }).toContain('Deploy report: {"service":"api","version":"1.4.2"}');
    await expect.poll(() => stream.textContent(), { timeout: 15_000 }).toMatch(/Run succeeded after/);
    expect(await stream.locator('.tag.hook').count()).toBeGreaterThanOrEqual(2);
    await shot('activity');

    await page.goto(`${new URL(page.url()).origin}/#/runs/${run.id}`);
    const transcript = page.getByLabel('Transcript');
    await expect.poll(() => transcript.textContent()).toContain('Deploy report: {"service":"api","version":"1.4.2"}');
    await expect.poll(() => page.getByText('succeeded').first().isVisible()).toBe(true);
    await shot('run');
  });

  it('filters the activity by kind and resets', async () => {
    await page.getByRole('link', { name: 'Activity' }).click();
    const stream = page.getByRole('log', { name: 'Activity stream' });
    await page.getByRole('button', { name: 'assistant', exact: true }).click();
    await expect.poll(() => stream.locator('[data-kind]').evaluateAll((lines) => [...new Set(lines.map((line) => line.getAttribute('data-kind')))])).toEqual(['assistant']);
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect.poll(() => stream.locator('[data-kind="system"]').count()).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => page.getByText('Data folder').isVisible()).toBe(true);
    await shot('settings');
  });
}, 120_000);
