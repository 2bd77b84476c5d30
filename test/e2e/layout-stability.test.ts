// End to end: the UI keeps still while it loads. Each view is loaded afresh in
// real Chromium against a real daemon that holds data (an automation, a webhook with a run, an
// instance), on a desktop width and at 390 px; the browser's own `layout-shift` entries (those
// without recent input, as Cumulative Layout Shift counts them) add up to less than 0.1.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { useE2e } from '../support/e2e';

const views = [
  ['activity', 'Activity'],
  ['chat', 'Chat'],
  ['automations', 'Automations'],
  ['agenda', 'Agenda'],
  ['webhooks', 'Webhooks'],
  ['instances', 'Instances'],
  ['runs', 'Runs'],
  ['settings', 'Settings'],
] as const;
const widths = [1280, 390] as const;

// The page's globals as this file sees them (it compiles without the DOM library).
type PageGlobals = {
  __layoutShifts: { value: number; sources: string[] }[];
  document: { scrollingElement: { scrollWidth: number } | null };
  innerWidth: number;
  requestAnimationFrame: (callback: () => void) => void;
  PerformanceObserver: new (callback: (list: { getEntries(): LayoutShiftEntry[] }) => void) => { observe(options: { type: string; buffered: boolean }): void };
};
type LayoutShiftEntry = { value: number; hadRecentInput: boolean; sources?: { node?: { nodeName?: string; className?: unknown } | null }[] };

let page: Page;
let origin: string;

// Before any script of the page: every layout shift of the load, buffered or not.
const recordShifts = (context: BrowserContext) =>
  context.addInitScript(() => {
    const globals = globalThis as unknown as PageGlobals;
    globals.__layoutShifts = [];
    new globals.PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        const sources = (entry.sources ?? []).map((source) => `${source.node?.nodeName ?? '?'}.${typeof source.node?.className === 'string' ? source.node.className : ''}`);
        globals.__layoutShifts.push({ value: entry.value, sources });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
const e2e = useE2e({ name: 'layout-stability', prepare: recordShifts });
const { skip, api } = e2e;

/** Loads a view from nothing (a new document, so every shift of its load counts) and waits until it settled. */
async function load(view: string, heading: string) {
  await page.goto('about:blank');
  await page.goto(`${origin}/#/${view}`);
  await expect.poll(() => page.getByRole('heading', { name: heading, level: 2 }).first().isVisible(), { timeout: 15_000 }).toBe(true);
  await page.waitForLoadState('networkidle');
  // Two frames, so that the last render's shifts are reported.
  await page.evaluate(() => {
    const { requestAnimationFrame: frame } = globalThis as unknown as PageGlobals;
    return new Promise<void>((resolve) => frame(() => frame(() => resolve())));
  });
}

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
  await api('POST', '/api/automations', { name: 'Standup notes', prompt: 'Summarise yesterday.', cronExpression: '30 8 * * 1-5' });
  const { webhook } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deploy report: {{payload}}' });
  await fetch(`${origin}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', body: 'api 1.4.2' });
  await api('POST', '/api/instances', { name: 'Echo', agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: { mode: 'off' } });
}, 120_000);

describe.skipIf(skip)('layout stability', () => {
  for (const width of widths) {
    it(`shifts less than 0.1 while each view loads with data, ${width} px wide`, async () => {
      await page.setViewportSize({ width, height: 800 });
      const shifts: Record<string, { total: number; sources: string[] }> = {};
      for (const [view, heading] of views) {
        await load(view, heading);
        const entries = await page.evaluate(() => (globalThis as unknown as PageGlobals).__layoutShifts);
        shifts[view] = { total: entries.reduce((sum, entry) => sum + entry.value, 0), sources: [...new Set(entries.flatMap((entry) => entry.sources))] };
      }
      const over = Object.entries(shifts).filter(([, { total }]) => total >= 0.1);
      if (over.length > 0) console.log(`layout shifts at ${width} px:\n${JSON.stringify(shifts, null, 2)}`);
      expect(Object.fromEntries(over)).toEqual({});
    }, 180_000);
  }
});
