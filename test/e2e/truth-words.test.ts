// End to end, in real Chromium on a real daemon: pages say it in words. An automation's "Each day"
// table names its days as a person reads them ("Fri 27 Nov"), not as ISO; Activity's custom range
// with From after To says at its fields that the range is reversed, and asks the server nothing.
// Skipped, with a line naming what to install, where Chromium is missing.
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'words' });
const { skip, api } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
let page: Page;
let origin: string;

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
});

describe.skipIf(skip)('pages that say it in words', () => {
  it('"Each day" names its days as a person reads them', async () => {
    const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['done'] }, sandbox: unsandboxed });
    const { automation } = await api<{ automation: { id: string } }>('POST', '/api/automations', { name: 'Daily sum', prompt: 'Sum up.', cronExpression: '0 9 * * *', instanceId: instance.id });
    const { run } = await api<{ run: { id: string } }>('POST', `/api/automations/${automation.id}/run`);
    await expect.poll(async () => (await api<{ run: { status: string } }>('GET', `/api/runs/${run.id}`)).run.status, { timeout: 20_000 }).toBe('succeeded');

    await page.goto(`${origin}/#/automations`);
    const card = page.getByRole('article', { name: 'Daily sum' });
    await card.getByText('Each day').click();
    const day = card.getByRole('table').locator('tbody th').first();
    await expect.poll(() => day.textContent(), { timeout: 10_000 }).toMatch(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)$/);
  }, 60_000);

  it('Activity: a custom range with From after To says so at its fields and asks nothing', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${origin}/#/activity`);
    await page.getByRole('button', { name: 'custom' }).click();
    const asked: string[] = [];
    const listen = (request: Request) => {
      if (request.url().includes('/api/activity')) asked.push(request.url());
    };
    page.on('request', listen);
    await page.getByLabel('From').fill('2026-11-28T10:00');
    await page.getByLabel('To').fill('2026-11-27T08:00');
    const error = page.getByRole('alert').filter({ hasText: 'reversed' });
    await expect.poll(() => error.textContent()).toBe('From is after To: the range is reversed, so nothing can match. Swap them, or pick another time.');
    expect(await page.getByLabel('To').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByText('No lines match the filters').count()).toBe(0);
    // The From alone was asked (a valid range); the reversed one never.
    expect(asked.filter((url) => url.includes('until='))).toEqual([]);
    page.off('request', listen);
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
