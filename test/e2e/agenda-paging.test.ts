// End to end: an Agenda week with more fires than one page (an automation every 3 minutes: about
// 3,500 fires to come, pages of 2,000) in real Chromium against a real daemon, 390 px wide. The
// first page says where it stops and that the days after are not shown yet; "Show more fires",
// clicked, shows the next page: the last day fills in and the notice goes. No sideways scroll of the
// page at either point. Screenshots go to test-artifacts/.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'agenda-paging', context: { viewport: { width: 390, height: 800 } } });
const { skip, api } = e2e;
let page: Page;

const sidewaysScroll = () =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return document.documentElement.scrollWidth - innerWidth;
  });

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  await api('POST', '/api/automations', { name: 'Every three minutes', prompt: 'Anything new?', cronExpression: '*/3 * * * *' });
}, 120_000);

describe.skipIf(skip)('the Agenda, paged, in Chromium', () => {
  it('shows the next page of a crowded week when "Show more fires" is clicked, 390 px wide', async () => {
    const pages: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/agenda') pages.push(url.searchParams.get('after') ?? 'first');
    });
    await page.goto(new URL('/#/agenda', e2e.daemon.url).href);
    const notice = page.getByTestId('agenda-cut-notice');
    await expect.poll(() => notice.isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await notice.textContent()).toMatch(/^Showing the first 2,000 fires of these 8 days: more are due/);
    const row = page.getByRole('table').getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Every three minutes' }) });
    const lastDay = row.getByRole('cell').last();
    // The last day is beyond the first page: empty until the next one is shown.
    expect(await lastDay.textContent()).toBe('');
    expect(await sidewaysScroll(), 'sideways scroll with the notice').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'agenda-paged-390-first.png'), fullPage: true });

    const more = page.getByRole('button', { name: 'Show more fires' });
    await more.scrollIntoViewIfNeeded();
    await more.click();
    await expect.poll(() => notice.isVisible(), { timeout: 20_000 }).toBe(false);
    // A full day every 3 minutes: 480 fires, counted in its cell.
    expect(await lastDay.textContent()).toMatch(/480\s*due/);
    expect(await more.count()).toBe(0);
    // One next page was asked for; a reload after a change elsewhere (the daemon is shared) reads as
    // far as "Show more" asked, the same page again, by design.
    expect(new Set(pages.filter((after) => after !== 'first')).size).toBe(1);
    expect(await sidewaysScroll(), 'sideways scroll after the next page').toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(artifacts, 'agenda-paged-390-more.png'), fullPage: true });
  }, 90_000);
});
