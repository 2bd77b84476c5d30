// End to end: the web UI, built from source, in real Chromium against a real headless daemon
// (`steward serve` as a child process). A user opens the login link, makes a sandboxed agent with a
// host it may reach and renames it, creates an automation and sees its next runs, creates a webhook
// and copies its URL, triggers it over HTTP, and watches the run and its activity arrive live; a
// host a sandboxed run was refused is allowed from the run page. Screenshots of each main view are
// kept in test-artifacts/. Skipped, with a line naming what to install, where Chromium is missing
// (requirements.ts).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { lacks } from '../support/requirements';

// The login link is the first test's to open: it checks the link works once.
const e2e = useE2e({ name: 'web-ui', login: false });
const { skip } = e2e;
let page: Page;
let loginLink: string;

const noSandbox = skip || lacks('sandbox');
const shot = (name: string) => page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });

beforeAll(async () => {
  if (skip) return;
  ({ page, loginLink } = e2e);
});

describe.skipIf(skip)('the web UI', () => {
  it('opens with the one-time login link, which then stops working', async () => {
    await page.goto(loginLink);
    await expect.poll(() => page.getByRole('heading', { name: 'Activity' }).isVisible(), { timeout: 10_000 }).toBe(true);
    await shot('activity-empty');
    const reused = await fetch(loginLink, { redirect: 'manual' });
    expect(reused.status).toBe(401);
  });

  it('creates an instance with a custom agent, shows its probe, and renames it', async () => {
    await page.getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('button', { name: 'New instance' }).click();
    const form = page.getByRole('form', { name: 'New instance' });
    await form.getByLabel('Name').fill('Echo');
    // exact: the Sandbox section's choices speak of "the agent" too.
    await form.getByLabel('Agent', { exact: true }).selectOption('custom');
    await form.getByLabel('Command', { exact: true }).fill('cat');
    // Sandboxed unless told otherwise; a host it may reach, typed wrong first and refused beside it.
    const sandbox = form.getByRole('group', { name: 'Sandbox' });
    expect(await sandbox.getByRole('radio', { name: /^Sandboxed \(recommended\)/ }).isChecked()).toBe(true);
    await sandbox.getByRole('button', { name: 'Add host' }).click();
    await sandbox.getByLabel('Allowed host 1', { exact: true }).fill('https://api.example.com/v1');
    await expect.poll(() => sandbox.getByLabel('Allowed host 1', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await form.getByRole('button', { name: 'Create instance' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('Nothing was saved.');
    await sandbox.getByLabel('Allowed host 1', { exact: true }).fill('api.example.com');
    await form.getByRole('button', { name: 'Create instance' }).click();
    const card = page.getByRole('article', { name: 'Echo' });
    // The probe runs on the server; its result reaches the card live.
    await expect.poll(() => card.textContent(), { timeout: 10_000 }).toMatch(/custom:cat · sandbox \(/);
    expect(await card.locator('.badge.sandboxed').textContent()).toMatch(/\bsandboxed$/);
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
    // The refusal shows next to the field it concerns (the form's own check: nothing is sent).
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

  it.skipIf(noSandbox)('allows a host a sandboxed run was refused, from the run page', async () => {
    // An agent that tries a host it was not given (curl goes through the sandbox's proxy, which refuses it).
    const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'curl -s -m 10 -o /dev/null https://evil.com/; echo tried'] };
    const created = await page.evaluate(async (body) => (await fetch('/api/instances', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json(), { name: 'Curious', agent, sandbox: { mode: 'sandbox', network: ['api.example.com'] } });
    const instanceId = (created as { instance: { id: string } }).instance.id;
    await expect.poll(async () => (await page.evaluate(async (id) => (await fetch(`/api/instances/${id}`)).json(), instanceId) as { instance: { status: string } }).instance.status, { timeout: 15_000 }).toBe('running');
    const { run } = (await page.evaluate(async (id) => (await fetch('/api/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ instanceId: id, prompt: 'look around' }) })).json(), instanceId)) as { run: { id: string } };
    await page.goto(`${new URL(page.url()).origin}/#/runs/${run.id}`);
    const transcript = page.getByRole('log', { name: 'Transcript' });
    await expect.poll(() => transcript.textContent(), { timeout: 15_000 }).toContain('The sandbox refused evil.com:443');
    await transcript.getByRole('button', { name: 'Allow evil.com' }).click();
    await expect.poll(() => page.getByTestId('toasts').textContent()).toContain('evil.com allowed for Curious');
    await expect.poll(() => transcript.textContent()).toContain('evil.com is allowed now.');
    const stored = (await page.evaluate(async (id) => (await fetch(`/api/instances/${id}`)).json(), instanceId)) as { instance: { sandbox: { network: string[] } } };
    expect(stored.instance.sandbox.network).toEqual(['api.example.com', 'evil.com']);
    await shot('run-sandbox-refusal');
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
