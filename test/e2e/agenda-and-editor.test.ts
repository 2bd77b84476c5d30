// End to end: the Agenda and the automation editor in real Chromium against a real daemon serving
// the web UI built from source. The Agenda is reached from the navigation, shows its timeline (or,
// while the daemon's agenda is not built yet, its refusal as one clean alert), has no sideways
// scroll of the page at 390 px wide, and no axe violations; the automation editor with When set to
// "After another automation", its Retry and Budget sections filled, saves what it shows and has no
// axe violations either. Screenshots go to test-artifacts/.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { openSection } from '../support/sections';

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const e2e = useE2e({ name: 'agenda' });
const { skip, api } = e2e;

let page: Page;

type PageGlobals = {
  axe: { run: (context: unknown) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[]; passes: unknown[] }> };
  document: { documentElement: { scrollWidth: number } };
  innerWidth: number;
};

async function violations(): Promise<unknown[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as PageGlobals;
    const results = await axe.run(document);
    if (results.passes.length === 0) throw new Error('axe ran no checks');
    return results.violations.map(({ id, help, nodes }) => ({ id, help, targets: nodes.map((node) => node.target) }));
  });
}

const isAgenda = (url: URL) => url.pathname === '/api/agenda';

const sidewaysScroll = () =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as PageGlobals;
    return document.documentElement.scrollWidth - innerWidth;
  });

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  // Fires every day of the week, one of them many times a day.
  await api('POST', '/api/automations', { name: 'Morning digest with a rather long name', prompt: 'Summarise the night.', cronExpression: '0 7 * * *' });
  await api('POST', '/api/automations', { name: 'Queue poller', prompt: 'Anything new?', cronExpression: '*/30 * * * *' });
}, 120_000);

describe.skipIf(skip)('the Agenda and the automation editor in Chromium', () => {
  for (const width of [1280, 390]) {
    it(`opens the Agenda from the navigation, ${width} px wide, with no sideways scroll and no axe violations`, async () => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(new URL('/#/activity', e2e.daemon.url).href);
      // At 390 px the entries sit behind the navigation's menu button.
      await openSection(page, 'Agenda');
      await expect.poll(() => page.getByRole('heading', { name: 'Agenda', level: 2 }).isVisible(), { timeout: 10_000 }).toBe(true);
      await page.waitForLoadState('networkidle');
      // Until the agenda's handler lands on this branch the daemon refuses it: the view says so in one alert.
      const timeline = page.getByRole('region', { name: 'Timeline' });
      const alert = page.getByRole('alert');
      await expect.poll(async () => (await timeline.isVisible()) || (await alert.isVisible()), { timeout: 10_000 }).toBe(true);
      if (await timeline.isVisible()) {
        const rows = await timeline.getByRole('rowheader').allTextContents();
        expect(rows).toEqual(['Morning digest with a rather long name', 'Queue poller']);
        expect(await page.getByRole('list', { name: 'Legend' }).isVisible()).toBe(true);
        // The timeline scrolls in its own box, reached by the keyboard.
        await timeline.focus();
        expect(await timeline.evaluate((box) => box === box.ownerDocument.activeElement)).toBe(true);
      } else {
        expect(await alert.textContent()).toMatch(/^The agenda could not be loaded: /);
        console.log(`agenda e2e: the daemon refused the agenda (${await alert.textContent()}); re-run once its handler is merged`);
      }
      await page.screenshot({ path: path.join(artifacts, `agenda-${width}.png`), fullPage: true });
      expect(await sidewaysScroll(), 'sideways scroll on the Agenda').toBeLessThanOrEqual(0);
      expect(await violations()).toEqual([]);
    }, 60_000);
  }

  it('lays a full week out in its own scrolling box at 390 px wide, with no axe violations in either theme', async () => {
    // The daemon's agenda, whatever it holds now, replaced by a full week of every kind of mark: this checks the layout.
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const at = (day: number, hour: number) => new Date(midnight.getTime() + (day * 24 + hour) * 3_600_000).toISOString();
    const states = [['fired', 'succeeded'], ['missed', null], ['caught-up', 'failed'], ['skipped', null]] as const;
    const entries = ['Morning digest with a rather long name', 'Queue poller'].flatMap((automationName, row) =>
      Array.from({ length: 8 }, (_, day) =>
        Array.from({ length: row === 0 ? 1 : 6 }, (_, index) => {
          const [state, runStatus] = day === 0 ? states[index % states.length] : (['due', null] as const);
          return { automationId: `aut_0${row}`, automationName, instanceId: 'ins_0', dueAt: at(day, 7 + index), state, reason: state === 'skipped' ? 'budget' : null, detail: null, runId: null, runStatus, forecastUsd: day === 0 ? null : 0.12 };
        }),
      ).flat(),
    );
    await page.route(isAgenda, (route) => route.fulfill({ json: { agenda: { from: at(0, 0), to: at(8, 0), entries, forecastMonthUsd: 21.6 } } }));
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(new URL('/#/agenda', e2e.daemon.url).href);
    // Loaded afresh: the previous test left the page on the Agenda.
    await page.reload();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect.poll(() => timeline.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await timeline.getByRole('rowheader').allTextContents()).toEqual(['Morning digest with a rather long name', 'Queue poller']);
    expect(await page.getByTestId('forecast').textContent()).toContain('about $21.60');
    // The table is wider than the phone: it scrolls inside its box, reached by the keyboard, and the page does not.
    expect(await timeline.evaluate((box) => box.scrollWidth > box.clientWidth)).toBe(true);
    await timeline.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => timeline.evaluate((box) => box.scrollLeft)).toBeGreaterThan(0);
    expect(await sidewaysScroll(), 'sideways scroll on the Agenda').toBeLessThanOrEqual(0);
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.screenshot({ path: path.join(artifacts, `agenda-week-390-${theme}.png`), fullPage: true });
      expect(await violations(), theme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.unroute(isAgenda);
  }, 60_000);

  it('saves an automation set to run after another, with retries and a budget, with no axe violations', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(new URL('/#/automations', e2e.daemon.url).href);
    await page.getByRole('button', { name: 'New automation' }).click();
    const form = page.getByRole('form', { name: 'New automation' });
    await form.getByLabel('Name', { exact: true }).fill('Digest follow-up');
    await form.getByLabel('Prompt', { exact: true }).fill('Act on {{previous.summary}}');
    await form.getByRole('radio', { name: 'After another automation' }).check();
    await form.getByLabel('After automation').selectOption({ label: 'Morning digest with a rather long name' });
    await form.getByRole('checkbox', { name: 'failed' }).check();
    const retry = form.getByRole('group', { name: 'Retry', exact: true });
    await retry.getByLabel('Retries after a failure').fill('2');
    await retry.getByLabel('First wait (seconds)').fill('90');
    const budget = form.getByRole('group', { name: 'Budget' });
    await budget.getByLabel('US$ a day').fill('1.5');
    // A refused amount is marked beside its field while axe looks.
    await budget.getByLabel('US$ a run').fill('nope');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => budget.getByRole('alert').textContent()).toBe('A dollar amount above 0 (such as 2.50), or empty for no limit.');
    await page.screenshot({ path: path.join(artifacts, 'automation-editor-after-retry-budget.png'), fullPage: true });
    expect(await violations()).toEqual([]);

    await budget.getByLabel('US$ a run').fill('');
    await form.getByRole('button', { name: 'Create automation' }).click();
    await expect.poll(() => page.getByRole('article', { name: 'Digest follow-up' }).isVisible()).toBe(true);
    const { automations } = await api<{ automations: { name: string; trigger: unknown; retry: unknown; budget: unknown }[] }>('GET', '/api/automations');
    const saved = automations.find((each) => each.name === 'Digest follow-up')!;
    expect(saved).toMatchObject({ trigger: { after: { on: ['succeeded', 'failed'] } }, retry: { attempts: 2, backoffSeconds: 90, on: ['rate_limit', 'overloaded', 'network', 'timeout'] }, budget: { usdPerDay: 1.5 } });
    expect(await page.getByRole('article', { name: 'Digest follow-up' }).textContent()).toContain('after Morning digest with a rather long name (succeeded, failed)');
    await page.screenshot({ path: path.join(artifacts, 'automations-cards.png'), fullPage: true });
    expect(await violations()).toEqual([]);
  }, 60_000);
});
