// End to end: a newcomer saves a webhook with the GitHub sender preset in the web UI (built from
// source, in real Chromium, against a real headless daemon). The form shows GitHub's signature
// scheme, so saving it with the secret left empty is refused in words; with the secret typed it is
// saved, the card states the check in force, and an unsigned request to its trigger URL is refused
// (401) while one GitHub signed is accepted. Skipped, with a line naming what to install, where
// Chromium is missing (requirements.ts).
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebUi, launchChromium, loginLinkOf } from '../support/browser';
import { tempDir } from '../support/core';
import { type Server, root, startDaemon } from '../support/processes';
import { lacks } from '../support/requirements';

const artifacts = path.join(root, 'test-artifacts');
const skip = lacks('chromium');
let daemon: Server;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let dataDir: string;
let webRoot: string;

beforeAll(async () => {
  if (skip) return;
  webRoot = await buildWebUi();
  dataDir = tempDir('steward-e2e-signature-');
  daemon = await startDaemon(dataDir, ['--port', '0'], { STEWARD_WEB_ROOT: webRoot });
  browser = await launchChromium();
  page = await browser.context.newPage();
  fs.mkdirSync(artifacts, { recursive: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  for (const dir of [dataDir, webRoot]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('a webhook from the GitHub preset', () => {
  it('cannot be saved showing a check it would not have, and once saved refuses unsigned requests', async () => {
    await page.goto(loginLinkOf(daemon));
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    const form = page.getByRole('form', { name: 'New webhook' });
    await form.getByLabel('Name').fill('GitHub pushes');
    await form.getByLabel('Sender').selectOption('github');
    expect(await form.getByLabel('Scheme').inputValue()).toBe('github');

    // As a newcomer would: the rest as the preset left it, Create.
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('Type the signing secret, or choose None');
    await page.screenshot({ path: path.join(artifacts, 'webhook-signature-refused.png'), fullPage: true });

    const secret = 'newcomer-github-secret';
    await form.getByLabel('Signing secret').fill(secret);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    const card = page.getByRole('article', { name: 'GitHub pushes' });
    await expect.poll(() => card.getByTestId('check-in-force').textContent()).toContain('Signature GitHub (X-Hub-Signature-256): a request without a valid one is refused (401).');
    await page.screenshot({ path: path.join(artifacts, 'webhook-signature-saved.png'), fullPage: true });

    const url = (await card.getByTestId('trigger-url').textContent())!;
    const body = '{"zen":"Keep it logically awesome."}';
    const headers = { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': 'e2e-1' };
    const unsigned = await fetch(url, { method: 'POST', headers, body });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: { code: string } }).error.code).toBe('invalid_signature');
    const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    const signed = await fetch(url, { method: 'POST', headers: { ...headers, 'x-hub-signature-256': signature }, body });
    expect(signed.status).toBe(202);
  });
});
