// End to end: every view of the web UI, at a phone's width (390×844) and a desktop's (1280×800),
// fits the window: no sideways scroll of the page. A real daemon holds data made through the API
// (instances, an automation with runs, a webhook with deliveries, a run waiting for a person, a
// failed run, a chat, a notification channel, a secret, an API key, a remote Steward), every name
// 150 characters without a space (a secret's name: 100, its limit). Real Chromium reaches each
// view by clicking the navigation (the menu at 390 px) and the buttons that open the editors.
// The navigation fits one row at 390 px, Escape returns focus to what opened a form, the skip link
// comes first, and the agent form gets the width it needs. Nothing spills out of its own box: no
// button's label past the button, nothing past its card's edge, the Agenda's headings and names in
// their columns, the chat header's name, status and image tag whole and apart, a toast and its
// Dismiss (at least 24 px) in the window; ordinary words are never broken mid-word in a table, the
// runs list's links are tall enough to tap, and View of a delivery shows its viewer on screen. Screenshots of each view go to
// test-artifacts/, and with UPDATE_SCREENSHOTS=1 (`npm run docs:screenshots`) to docs/screenshots/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { WaitTimeout, waitFor } from '../support/wait';
import { root } from '../support/processes';
import { openSection } from '../support/sections';

const docs = path.join(root, 'docs', 'screenshots');
const updateDocs = process.env.UPDATE_SCREENSHOTS === '1';
const widths = [390, 1280] as const;
const e2e = useE2e({ name: 'layout' });
const { skip } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };

/** A name of `length` characters without a space, starting with `word`. */
const longName = (word: string, length = 150) => `${word}_${'Supercalifragilistic'.repeat(10)}`.slice(0, length);
const names = {
  instance: longName('Instance'),
  failing: longName('Failing'),
  automation: longName('Automation'),
  webhook: longName('Webhook'),
  gated: longName('Gated'),
  channel: longName('Channel'),
  key: longName('Key'),
  remote: longName('Remote'),
  secret: longName('SECRET', 100),
};

// The page's globals as this file sees them (it compiles without the DOM library).
type Box = { getBoundingClientRect(): { right: number; width: number }; tagName: string; className: unknown; textContent: string | null };
type PageGlobals = {
  document: { documentElement: { scrollWidth: number }; querySelectorAll(selector: string): Iterable<Box>; activeElement: Box | null };
  innerWidth: number;
};

let page: Page;
let seed: { instance: string; failing: string; automation: string };

async function api<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
  // Through the page, so the session cookie of the login link is the credential: only to seed data.
  return page.evaluate(
    async ({ method, route, body }) => {
      const response = await fetch(route, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
      return (response.status === 204 ? undefined : response.json()) as Promise<T>;
    },
    { method, route, body },
  );
}

/** How far the page reaches past the window's right edge, and the widest elements that make it. */
async function overflow(): Promise<{ by: number; culprits: string[] }> {
  return page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as PageGlobals;
    const by = document.documentElement.scrollWidth - innerWidth;
    if (by <= 0) return { by, culprits: [] };
    // The elements that stick out past the edge while their parent does not: where to look.
    const past = new Set([...document.querySelectorAll('body *')].filter((element) => element.getBoundingClientRect().right > innerWidth + 1));
    const culprits = [...past]
      .filter((element) => !past.has((element as unknown as { parentElement: Box }).parentElement))
      .slice(0, 6)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className)} (${Math.round(element.getBoundingClientRect().width)} px): ${(element.textContent ?? '').slice(0, 40)}`);
    return { by, culprits };
  });
}

/** What spills out of its own box on the page as it is now, each in words (empty: nothing). */
async function spills(): Promise<string[]> {
  return page.evaluate(() => {
    type Rect = { left: number; right: number; top: number; bottom: number; width: number; height: number };
    type El = {
      getBoundingClientRect(): Rect; scrollWidth: number; clientWidth: number; textContent: string | null; tagName: string;
      parentElement: El | null; closest(selector: string): El | null; querySelectorAll(selector: string): Iterable<El>; children: Iterable<El>;
    };
    type Doc = { querySelectorAll(selector: string): Iterable<El>; createRange(): { setStart(node: unknown, at: number): void; setEnd(node: unknown, at: number): void; getClientRects(): { length: number } }; createTreeWalker(root: El, what: number): { nextNode(): { textContent: string | null } | null } };
    const { document, getComputedStyle, innerWidth } = globalThis as unknown as { document: Doc; getComputedStyle: (element: El) => { overflowX: string; textTransform: string }; innerWidth: number };
    const found: string[] = [];
    const text = (element: El) => (element.textContent ?? '').trim().slice(0, 40);
    const shown = (element: El) => { const box = element.getBoundingClientRect(); return box.width > 0 && box.height > 0 && !element.closest('.visually-hidden'); };
    for (const button of document.querySelectorAll('main button')) {
      if (shown(button) && button.scrollWidth > button.clientWidth + 1) found.push(`a button's label spills past it: "${text(button)}" (${button.scrollWidth} > ${button.clientWidth} px)`);
    }
    for (const card of document.querySelectorAll('main .card')) {
      // Text past the card's edge (a long word in a line of words) shows in its scroll width.
      if (shown(card) && card.scrollWidth > card.clientWidth + 1) found.push(`what a card holds runs past its edge: "${text(card)}" (${card.scrollWidth} > ${card.clientWidth} px)`);
      const edge = card.getBoundingClientRect();
      for (const inner of card.querySelectorAll('*')) {
        if (!shown(inner)) continue;
        const box = inner.getBoundingClientRect();
        if (box.right <= edge.right + 1 && box.left >= edge.left - 1) continue;
        // Inside a box that scrolls or cuts it, it is where it should be.
        let clipped = false;
        for (let up = inner.parentElement; up && up !== card; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') clipped = true;
        if (!clipped) found.push(`${inner.tagName.toLowerCase()} runs past its card's edge by ${Math.round(box.right - edge.right)} px: "${text(inner)}"`);
      }
    }
    for (const heading of document.querySelectorAll('table.agenda thead th')) {
      if (heading.scrollWidth > heading.clientWidth + 1) found.push(`an Agenda heading runs into the next one: "${text(heading)}"`);
    }
    for (const name of document.querySelectorAll('table.agenda th[scope="row"] a')) {
      const cell = name.closest('th')!.getBoundingClientRect();
      if (name.getBoundingClientRect().right > cell.right + 1) found.push(`an Agenda name is drawn across the days: "${text(name)}"`);
      if (getComputedStyle(name).textTransform !== 'none') found.push(`an Agenda name is not in its own case: "${text(name)}"`);
    }
    for (const head of document.querySelectorAll('.conversation-head')) {
      const parts = [...head.children].filter(shown);
      for (const part of parts) {
        const isLongName = part.closest('.instance-name') && (part.textContent ?? '').length > 40;
        if (!isLongName && part.scrollWidth > part.clientWidth + 1) found.push(`the chat header cuts "${text(part)}"`);
      }
      for (const [index, one] of parts.entries()) {
        for (const other of parts.slice(index + 1)) {
          const a = one.getBoundingClientRect();
          const b = other.getBoundingClientRect();
          if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) found.push(`in the chat header "${text(one)}" overlaps "${text(other)}"`);
        }
      }
    }
    for (const button of document.querySelectorAll('.toast button')) {
      const box = button.getBoundingClientRect();
      if (box.right > innerWidth || box.left < 0) found.push(`a toast's Dismiss is off screen (${Math.round(box.left)}–${Math.round(box.right)} px)`);
      if (box.width < 24 || box.height < 24) found.push(`a toast's Dismiss is ${Math.round(box.width)}×${Math.round(box.height)} px`);
    }
    // A word of a table cell drawn on two lines: an ordinary word broken (names may be).
    for (const cell of document.querySelectorAll('main td:not(:first-child)')) {
      if (!shown(cell) || cell.closest('.cut')) continue;
      const walker = document.createTreeWalker(cell, 4);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent ?? '';
        // Words between spaces, their punctuation aside; a long unbroken string may break anywhere.
        for (const match of value.matchAll(/(?<=^|\s)[(]?([A-Za-z]{2,20})[),.:;]?(?=\s|$)/g)) {
          const range = document.createRange();
          const start = match.index + match[0].indexOf(match[1]);
          range.setStart(node, start);
          range.setEnd(node, start + match[1].length);
          if (range.getClientRects().length > 1) found.push(`a table breaks the word "${match[1]}" mid-word`);
        }
      }
    }
    return [...new Set(found)].slice(0, 12);
  });
}

async function settled(heading: string | RegExp): Promise<void> {
  await expect.poll(() => page.getByRole('heading', { name: heading, level: 2 }).first().isVisible(), { timeout: 15_000 }).toBe(true);
  await page.waitForLoadState('networkidle');
}

/** Checks the page as it is now: kept when it scrolls sideways; a screenshot either way. */
async function check(view: string, width: number, found: Record<string, { by: number; culprits: string[] }>): Promise<void> {
  const file = path.join(artifacts, `${view}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  if (updateDocs) fs.copyFileSync(file, path.join(docs, `${view}-${width}.png`));
  const result = await overflow();
  const spilled = await spills();
  if (result.by > 0 || spilled.length > 0) found[`${view} at ${width} px`] = { ...result, culprits: [...result.culprits, ...spilled] };
}

const card = (name: string) => page.getByRole('article', { name, exact: true });

/** Whether `button` of the card named `name` gets the focus soon (after a form closed). */
async function focusReturnsTo(name: string, button: string): Promise<boolean> {
  const target = card(name).getByRole('button', { name: button, exact: true });
  const focused = () => target.evaluate((element) => element === element.ownerDocument.activeElement).catch(() => false);
  return waitFor(focused, { what: `the focus on ${button} of ${name}`, timeoutMs: 3_000 }).catch((error: unknown) => {
    if (error instanceof WaitTimeout) return false;
    throw error;
  });
}

beforeAll(async () => {
  if (skip) return;
  ({ page } = e2e);
  if (updateDocs) fs.mkdirSync(docs, { recursive: true });
  // Everything but runs: the onboarding is checked first, while no run has succeeded.
  const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: names.instance, agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: unsandboxed });
  const { instance: failing } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: names.failing, agent: { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'echo broken >&2; exit 3'] }, sandbox: unsandboxed });
  const { automation } = await api<{ automation: { id: string } }>('POST', '/api/automations', { name: names.automation, prompt: 'Summarise yesterday.', cronExpression: '30 8 * * 1-5', instanceId: instance.id });
  await api('POST', '/api/webhooks', { name: names.webhook, promptTemplate: 'Deploy report: {{payload}}', instanceId: instance.id });
  await api('POST', '/api/webhooks', { name: names.gated, promptTemplate: 'Release {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } });
  await api('PUT', `/api/secrets/${names.secret}`, { value: 'stw_example' });
  await api('POST', '/api/remotes', { name: names.remote, url: 'http://127.0.0.1:9', apiKeyRef: names.secret });
  await api('POST', '/api/notification-channels', { name: names.channel, kind: 'slack', url: 'http://127.0.0.1:9/services/T0/B0/x' });
  await api('POST', '/api/keys', { name: names.key, scope: 'read' });
  const running = async (id: string) => (await api<{ instance: { status: string } }>('GET', `/api/instances/${id}`)).instance.status === 'running';
  await waitFor(async () => (await running(instance.id)) && (await running(failing.id)), { what: 'both instances are running', timeoutMs: 30_000 });
  seed = { instance: instance.id, failing: failing.id, automation: automation.id };
}, 180_000);

/** Runs of every source, a failed one, a run waiting for a person; returns once they ended (or wait). */
async function seedRuns(): Promise<void> {
  const { webhooks } = await api<{ webhooks: { name: string; token: string }[] }>('GET', '/api/webhooks');
  const runs: string[] = [];
  runs.push((await api<{ run: { id: string } }>('POST', `/api/automations/${seed.automation}/run`, {})).run.id);
  runs.push((await api<{ run: { id: string } }>('POST', '/api/runs', { instanceId: seed.instance, prompt: 'Hello from a chat' })).run.id);
  runs.push((await api<{ run: { id: string } }>('POST', '/api/runs', { instanceId: seed.failing, prompt: 'This one fails' })).run.id);
  for (const webhook of webhooks) {
    const body = JSON.stringify({ release: `v1.${webhook.name.length}`, note: longName('Payload', 300) });
    const response = await fetch(new URL(`/api/webhooks/trigger/${webhook.token}`, e2e.daemon.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(response.status, `trigger ${webhook.name.slice(0, 10)}`).toBeLessThan(300);
  }
  const ended = async (id: string) => ['succeeded', 'failed'].includes((await api<{ run: { status: string } }>('GET', `/api/runs/${id}`)).run.status);
  await waitFor(async () => (await Promise.all(runs.map(ended))).every(Boolean), { what: 'the seeded runs ended', timeoutMs: 30_000 });
  await waitFor(async () => (await api<{ approvals: unknown[] }>('GET', '/api/approvals')).approvals.length > 0, { what: 'a run waits for a person', timeoutMs: 30_000 });
}

describe.skipIf(skip)('layout at a phone and a desktop width', () => {
  it('shows the onboarding with no sideways scroll at either width', async () => {
    const found: Record<string, { by: number; culprits: string[] }> = {};
    for (const width of widths) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(new URL('/#/activity', e2e.daemon.url).href);
      await settled('Welcome to Steward');
      await check('onboarding', width, found);
    }
    // A command of 150 characters that is not on PATH: "Not ready: … was not found on PATH" wraps in the card.
    await page.setViewportSize({ width: 390, height: 844 });
    const onboarding = page.getByRole('region', { name: 'Welcome to Steward' });
    await onboarding.getByRole('radio', { name: 'Any command' }).check();
    await onboarding.getByLabel('Command', { exact: true }).fill(longName('Command'));
    await onboarding.getByRole('button', { name: 'Use this agent' }).click();
    await expect.poll(() => onboarding.getByText(/^Not ready:/).isVisible(), { timeout: 15_000 }).toBe(true);
    await check('onboarding-not-ready', 390, found);
    expect(found).toEqual({});
    // Steward's agent back to one that runs, so the chat header shows its status and image tag.
    const { instances } = await api<{ instances: { id: string; name: string }[] }>('GET', '/api/instances');
    const steward = instances.find((instance) => instance.name === 'Steward')!;
    await api('PATCH', `/api/instances/${steward.id}`, { agent: { provider: 'command', preset: 'custom', command: 'cat' } });
    await waitFor(async () => (await api<{ instance: { status: string } }>('GET', `/api/instances/${steward.id}`)).instance.status === 'running', { what: 'Steward runs again', timeoutMs: 30_000 });
  }, 60_000);

  it('seeds runs of every source', async () => {
    await seedRuns();
  }, 90_000);

  for (const width of widths) {
    it(`visits every view through the navigation with no sideways scroll, ${width} px wide`, async () => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.goto(new URL('/#/activity', e2e.daemon.url).href);
      await page.reload();
      const found: Record<string, { by: number; culprits: string[] }> = {};

      // The navigation is one row at a phone's width (its menu closed) and holds the count.
      const nav = page.getByRole('navigation', { name: 'Sections' });
      await expect.poll(() => nav.isVisible()).toBe(true);
      if (width === 390) {
        const height = (await nav.boundingBox())!.height;
        expect.soft(height, 'the navigation is one row').toBeLessThanOrEqual(64);
        const menu = nav.getByRole('button', { name: /^Menu/ });
        await expect.poll(async () => (await menu.isVisible()) && (await menu.textContent()), { message: 'the menu button holds the count', timeout: 10_000 }).toContain('1');
      }

      for (const [view, link, heading] of [
        ['activity', 'Activity', 'Activity'],
        ['needs-you', /^Needs you/, 'Needs you'],
        ['chat', 'Chat', 'Chat'],
        ['agenda', 'Agenda', 'Agenda'],
        ['settings', 'Settings', 'Settings'],
      ] as const) {
        await openSection(page, link);
        await settled(heading);
        if (view === 'activity') {
          await expect.poll(() => page.getByRole('log', { name: 'Activity stream' }).textContent()).toContain('Hello from a chat');
          // A long relative time fits its column: it neither runs into the avatar nor is cut.
          const cut = await page.locator('.line time').first().evaluate((time) => {
            time.textContent = '32 seconds ago';
            return time.scrollWidth - time.clientWidth;
          });
          expect.soft(cut, '"32 seconds ago" fits beside the avatar').toBeLessThanOrEqual(0);
        }
        if (view === 'settings') await expect.poll(() => page.getByText(names.key).first().isVisible()).toBe(true);
        await check(view, width, found);
      }

      await openSection(page, 'Runs');
      await settled('Runs');
      await expect.poll(() => page.locator('table.runs tbody tr').count()).toBeGreaterThanOrEqual(4);
      await check('runs', width, found);
      const runLink = (await page.locator('table.runs').getByRole('link').first().boundingBox())!;
      expect.soft(runLink.height, "a run's link is tall enough to tap").toBeGreaterThanOrEqual(24);
      await page.locator('table.runs').getByRole('link').first().click();
      await settled('Run');
      await check('run', width, found);

      await openSection(page, 'Automations');
      await settled('Automations');
      await card(names.automation).getByRole('button', { name: 'History' }).click();
      await expect.poll(() => page.getByRole('region', { name: `History of ${names.automation}` }).getByRole('link').count()).toBeGreaterThan(1);
      await check('automations', width, found);
      await card(names.automation).getByRole('button', { name: 'Edit' }).click();
      await expect.poll(() => page.getByRole('form', { name: `Edit ${names.automation}` }).isVisible()).toBe(true);
      await check('automation-editor', width, found);
      // Escape closes the form and gives the focus back to the button that opened it.
      await page.keyboard.press('Escape');
      expect.soft(await focusReturnsTo(names.automation, 'Edit'), 'Escape gives the focus back to Edit').toBe(true);
      // Saved: the toast names the automation, and wraps in the window with its Dismiss in reach.
      await card(names.automation).getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('form', { name: `Edit ${names.automation}` }).getByRole('button', { name: 'Save' }).click();
      const toast = page.getByTestId('toasts').getByText(`${names.automation} saved.`);
      await expect.poll(() => toast.isVisible()).toBe(true);
      await check('automation-saved-toast', width, found);
      await page.getByTestId('toasts').getByRole('button', { name: 'Dismiss' }).first().click();
      await expect.poll(() => toast.count()).toBe(0);
      // Delete asks first, the question naming the automation inside its card.
      await card(names.automation).getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => card(names.automation).getByRole('button', { name: 'Keep it' }).isVisible()).toBe(true);
      await check('automation-delete', width, found);
      await card(names.automation).getByRole('button', { name: 'Keep it' }).click();

      await openSection(page, 'Webhooks');
      await settled('Webhooks');
      await expect.poll(() => page.getByRole('table', { name: `Deliveries of ${names.webhook}` }).isVisible()).toBe(true);
      await check('webhooks', width, found);
      // View opens the viewer where it is seen, focused; Escape gives the focus back to View.
      const view = card(names.webhook).getByRole('button', { name: /^View delivery/ }).first();
      expect.soft(await view.getAttribute('aria-expanded'), 'View says it is closed').toBe('false');
      await view.click();
      const viewer = page.getByRole('region', { name: /^Delivery / });
      await expect.poll(() => viewer.isVisible()).toBe(true);
      await expect.poll(() => viewer.evaluate((element) => element === element.ownerDocument.activeElement), { message: 'the viewer has the focus' }).toBe(true);
      const seen = (await viewer.boundingBox())!;
      expect.soft(seen.y, 'the viewer starts in the window').toBeLessThan(width === 390 ? 844 : 800);
      expect.soft(seen.y + Math.min(seen.height, 100), 'the viewer starts in the window').toBeGreaterThan(0);
      expect.soft(await view.getAttribute('aria-expanded'), 'View says it is open').toBe('true');
      await check('webhook-delivery', width, found);
      await page.keyboard.press('Escape');
      await expect.poll(() => view.evaluate((element) => element === element.ownerDocument.activeElement), { message: 'Escape gives the focus back to View' }).toBe(true);
      await card(names.webhook).getByRole('button', { name: 'Edit' }).click();
      await expect.poll(() => page.getByRole('form', { name: `Edit ${names.webhook}` }).isVisible()).toBe(true);
      await check('webhook-editor', width, found);
      await page.keyboard.press('Escape');
      expect.soft(await focusReturnsTo(names.webhook, 'Edit'), 'Escape gives the focus back to Edit').toBe(true);

      await openSection(page, 'Instances');
      await settled('Instances');
      await check('instances', width, found);
      await card(names.instance).getByRole('button', { name: 'Edit agent' }).click();
      const form = page.getByRole('form', { name: `Agent of ${names.instance}` });
      await expect.poll(() => form.isVisible()).toBe(true);
      await check('agent-form', width, found);
      // The form takes the width it needs: at a desktop's width, more than a card of the grid.
      if (width === 1280) expect((await form.boundingBox())!.width, 'the agent form is wide enough').toBeGreaterThanOrEqual(600);
      await page.keyboard.press('Escape');
      expect.soft(await focusReturnsTo(names.instance, 'Edit agent'), 'Escape gives the focus back to Edit agent').toBe(true);

      if (Object.keys(found).length > 0) console.log(`sideways scroll or spills at ${width} px:\n${JSON.stringify(found, null, 2)}`);
      expect(Object.keys(found), 'views that scroll sideways or spill out of a box').toEqual([]);
    }, 180_000);
  }

  it('opens and closes the navigation menu with the keyboard at 390 px, and the skip link comes first', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(new URL('/#/activity', e2e.daemon.url).href);
    await page.reload();
    await settled('Activity');
    // The first Tab reaches the skip link, visible once focused; it moves the focus to the view.
    await page.keyboard.press('Tab');
    const skipLink = page.getByRole('link', { name: 'Skip to content' });
    await expect.poll(() => skipLink.evaluate((link) => link === link.ownerDocument.activeElement)).toBe(true);
    expect(await skipLink.isVisible()).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.tagName)).toBe('MAIN');
    // The menu: opened with the keyboard, its entries reachable, Escape closes it and returns the focus.
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const menu = nav.getByRole('button', { name: /^Menu/ });
    expect(await nav.getByRole('link', { name: 'Webhooks', exact: true }).isVisible()).toBe(false);
    await menu.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => nav.getByRole('link', { name: 'Webhooks', exact: true }).isVisible()).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    await expect.poll(() => nav.getByRole('link', { name: 'Webhooks', exact: true }).isVisible()).toBe(false);
    expect(await menu.evaluate((button) => button === button.ownerDocument.activeElement)).toBe(true);
  }, 60_000);
});
