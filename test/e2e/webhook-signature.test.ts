// End to end: a newcomer saves a webhook with the GitHub sender preset in the web UI (built from
// source, in real Chromium, against a real headless daemon). The form shows GitHub's signature
// scheme, so saving it with the secret left empty is refused in words; with the secret typed it is
// saved, the card states the check in force, and an unsigned request to its trigger URL is refused
// (401) while one GitHub signed is accepted. Skipped, with a line naming what to install, where
// Chromium is missing (requirements.ts).
import { createHmac } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'signature', login: false });
const { skip } = e2e;

describe.skipIf(skip)('a webhook from the GitHub preset', () => {
  it('cannot be saved showing a check it would not have, and once saved refuses unsigned requests', async () => {
    const { page } = e2e;
    await page.goto(e2e.loginLink);
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
