// End to end: a decision link opened on a phone. A real headless daemon serves the built web UI;
// a webhook whose runs wait for a person is triggered. In a FRESH Chromium context at 390×844 with
// no login, the allow link's page is opened and its Allow button clicked: the page says Allowed and
// the run goes on; a second press (another tab of the same link, and back) shows the 410 page;
// another approval's deny link is denied by its button. Then, in the logged-in app at 390 px,
// Needs you's "Open on phone" shows the link's QR code (the image is the one `qrcode` draws for
// that link) with the link beside it, and "Copy link" puts both links on the clipboard; the run page
// offers the same. The links come from the API as seed data only: every decision is a click.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { qrDataUrl } from '../../src/renderer/src/features/approvals/qr';
import { useE2e } from '../support/e2e';
import { phoneViewport } from '../support/phone-browser';

// The logged-in app at a phone's size too, allowed to read what Copy link put on the clipboard.
const e2e = useE2e({ name: 'approval-link', context: { viewport: phoneViewport }, prepare: (context, origin) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin }) });
const { skip, api } = e2e;
const unsandboxed = { mode: 'off', network: [], readDeny: [], writeAllow: [] };
const title = 'Start a run of webhook "Deploy"?';
// A time of day, with its date when that is not today (an expiry past midnight: "28 Nov 00:07 UTC").
const clock = String.raw`(\d{1,2} [A-Z][a-z]{2} )?\d\d:\d\d UTC`;
let appPage: Page;
let origin: string;
let webhookToken: string;

interface Links { allow: string; deny: string }

const runStatus = async (id: string) => (await api<{ run: { status: string } }>('GET', `/api/runs/${id}`)).run.status;

/** Fires the webhook: a run that waits, and its approval's links (seed data, from the API). */
async function waitingRun(payload: string): Promise<{ runId: string; links: Links }> {
  const fired = await fetch(`${origin}/api/webhooks/trigger/${webhookToken}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: payload });
  expect(fired.status).toBe(202);
  const runId = ((await fired.json()) as { run: { id: string } }).run.id;
  const { approvals } = await api<{ approvals: { links: Links }[] }>('GET', `/api/approvals?status=pending&runId=${runId}`);
  return { runId, links: approvals[0].links };
}

// Functions given to page.evaluate run in the page: they cast globalThis (no DOM types in tests).
interface PageGlobals { document: { documentElement: { scrollWidth: number } }; innerWidth: number; navigator: { clipboard: { readText(): Promise<string> } } }
const sidewaysScroll = (page: Page) => page.evaluate(() => { const { document, innerWidth } = globalThis as unknown as PageGlobals; return document.documentElement.scrollWidth > innerWidth; });

beforeAll(async () => {
  if (skip) return;
  ({ page: appPage, origin } = e2e);
  const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Gate', agent: { provider: 'command', preset: 'custom', command: 'echo', args: ['deployed'] }, sandbox: unsandboxed });
  const { webhook } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Deploy', promptTemplate: 'Deploy {{payload}}', instanceId: instance.id, approval: { mode: 'before-run', timeoutSeconds: 3600 } });
  webhookToken = webhook.token;
}, 90_000);

describe.skipIf(skip)('the decision link on a phone', () => {
  it('Allow and Deny, clicked in a fresh context at 390×844 with no login; a second press is the 410 page', async () => {
    const first = await waitingRun('v1');
    const second = await waitingRun('v2');
    const phone = await e2e.browser.newContext({ viewport: phoneViewport });
    try {
      const page = await phone.newPage();
      await page.goto(first.links.allow);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title);
      expect(await page.textContent('body')).toMatch(new RegExp(`expires in (59 minutes|1 hour), at ${clock}`));
      expect(await sidewaysScroll(page)).toBe(false);
      // The same link in a second tab, pressed after the first has decided.
      const later = await phone.newPage();
      await later.goto(first.links.allow);

      await page.getByRole('button', { name: 'Allow' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`Allowed: ${title}`);
      expect(await page.textContent('body')).toContain('The run is queued and starts now.');
      await expect.poll(() => runStatus(first.runId), { timeout: 15_000 }).toBe('succeeded');

      const [pressedAgain] = await Promise.all([later.waitForResponse((response) => response.request().method() === 'POST'), later.getByRole('button', { name: 'Allow' }).click()]);
      expect(pressedAgain.status()).toBe(410);
      await expect.poll(() => later.getByRole('heading', { level: 1 }).textContent()).toBe(`Allowed: ${title}`);
      expect(await later.textContent('body')).toMatch(new RegExp(`This link no longer decides anything: the request was allowed by a link, less than a minute ago, at ${clock}\\.`));
      await page.goBack();
      expect(await page.textContent('body')).toContain('This link no longer decides anything');
      expect(await page.getByRole('button').count()).toBe(0);

      const deny = await phone.newPage();
      await deny.goto(second.links.deny);
      await deny.getByRole('button', { name: 'Deny' }).click();
      await expect.poll(() => deny.getByRole('heading', { level: 1 }).textContent()).toBe(`Denied: ${title}`);
      expect(await deny.textContent('body')).toContain('The run will not start.');
      expect(await runStatus(second.runId)).toBe('cancelled');
    } finally {
      await phone.close();
    }
  }, 60_000);

  it('Needs you at 390 px: "Open on phone" shows the link as a QR code, "Copy link" copies both links', async () => {
    const { runId, links } = await waitingRun('v3');
    await appPage.goto(`${origin}/#/needs-you`);
    // This run's request: an earlier test's, left waiting where it failed, must not stand in for it.
    const request = appPage.getByRole('article', { name: title }).filter({ hasText: 'v3' });
    await expect.poll(() => request.isVisible(), { timeout: 10_000 }).toBe(true);

    await request.getByRole('button', { name: 'Open on phone' }).click();
    const panel = request.getByRole('region', { name: 'Open on phone' });
    const qr = panel.getByRole('img', { name: 'QR code of the allow link' });
    await expect.poll(() => qr.getAttribute('src')).toBe(await qrDataUrl(links.allow));
    expect(await panel.getByRole('img', { name: 'QR code of the deny link' }).getAttribute('src')).toBe(await qrDataUrl(links.deny));
    expect(await panel.textContent()).toContain(links.allow);
    // The daemon has no tunnel here: the links are loopback ones, and the panel says a phone cannot open them.
    expect(await panel.textContent()).toContain(`These links point at this computer (${origin}): a phone cannot open them. The tunnel is down.`);
    expect(await sidewaysScroll(appPage)).toBe(false);

    await request.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => appPage.getByText('Decision links copied (allow and deny). Each works once.').isVisible()).toBe(true);
    expect(await appPage.evaluate(() => (globalThis as unknown as PageGlobals).navigator.clipboard.readText())).toBe(`Allow: ${links.allow}\nDeny: ${links.deny}`);

    // The run page offers the same for its request.
    await appPage.goto(`${origin}/#/runs/${runId}`);
    const inline = appPage.getByRole('article', { name: title });
    await expect.poll(() => inline.isVisible(), { timeout: 10_000 }).toBe(true);
    await inline.getByRole('button', { name: 'Open on phone' }).click();
    await expect.poll(() => inline.getByRole('img', { name: 'QR code of the allow link' }).getAttribute('src')).toBe(await qrDataUrl(links.allow));
  }, 60_000);
});
