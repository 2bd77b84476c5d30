// End to end, from a newcomer's report at 390 px: a week with a fire every minute (six pages of
// fires) in real Chromium against a real daemon. "Show more fires" pressed from the keyboard keeps
// its focus, so Enter again reads the next page; and the automations' names stay in view while the
// week scrolls sideways in its box.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from '../support/e2e';

const e2e = useE2e({ name: 'agenda-week-keyboard', context: { viewport: { width: 390, height: 844 } } });
const { skip, api } = e2e;
let page: Page;

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  await api('POST', '/api/automations', { name: 'Every minute', prompt: 'Anything new?', cronExpression: '* * * * *' });
}, 120_000);

describe.skipIf(skip)('the Agenda week at 390 px, by keyboard and swipe', () => {
  it('keeps the keyboard on "Show more fires" from one page to the next', async () => {
    await page.goto(new URL('/#/agenda', e2e.daemon.url).href);
    const notice = page.getByTestId('agenda-cut-notice');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^Showing the first 2,000 fires/);
    const more = page.getByRole('button', { name: /fires/ }).filter({ hasText: /Show more fires|Loading more fires/ });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^Showing the first 4,000 fires/);
    expect(await more.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => notice.textContent(), { timeout: 20_000 }).toMatch(/^Showing the first 6,000 fires/);
  }, 90_000);

  it('keeps the names in view while the week scrolls sideways', async () => {
    const name = page.getByRole('rowheader', { name: 'Every minute' });
    const box = await name.evaluate((cell) => {
      let scroller = cell.parentElement;
      while (scroller && scroller.scrollWidth <= scroller.clientWidth) scroller = scroller.parentElement;
      scroller!.scrollLeft = 500;
      return scroller!.scrollLeft;
    });
    expect(box, 'the week scrolled sideways').toBeGreaterThan(0);
    await expect.poll(async () => (await name.boundingBox())!.x).toBeGreaterThanOrEqual(0);
    expect((await name.boundingBox())!.x).toBeLessThan(100);
  }, 30_000);
});
