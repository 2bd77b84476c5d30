// End to end: every main view of the web UI, built from source and served by a real daemon, checked
// with axe-core in real Chromium: light and dark (page.emulateMedia), at 1280 and at 800 px wide,
// with no violations allowed, and no sideways scroll on Activity and Runs at 800 px. Screenshots
// of each view in each theme go to test-artifacts/, and with UPDATE_SCREENSHOTS=1 to docs/screenshots/
// (the README shows some), so that an ordinary test run leaves the checkout as it was.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWebUi, launchChromium, loginLinkOf } from '../support/browser';
import { tempDir } from '../support/core';
import { type Server, root, startDaemon } from '../support/processes';
import { lacks } from '../support/requirements';

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const artifacts = path.join(root, 'test-artifacts');
const docs = path.join(root, 'docs', 'screenshots');
const updateDocs = process.env.UPDATE_SCREENSHOTS === '1';
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const views = [
  ['activity', 'Activity'],
  ['chat', 'Chat'],
  ['automations', 'Automations'],
  ['webhooks', 'Webhooks'],
  ['instances', 'Instances'],
  ['runs', 'Runs'],
  ['settings', 'Settings'],
] as const;
const themes = ['light', 'dark'] as const;

let daemon: Server;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
let origin: string;
let dataDir: string;
let webRoot: string;

const skip = lacks('chromium');

async function api<T = unknown>(method: string, route: string, body?: unknown): Promise<T> {
  // Through the page, so the session cookie of the login link is the credential.
  return page.evaluate(
    async ({ method, route, body }) => (await fetch(route, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<T>,
    { method, route, body },
  );
}

// What the page's globals look like here (this file compiles without the DOM library); functions
// given to page.evaluate run in the page, so they cast globalThis themselves.
type PageGlobals = {
  axe: { run: (context: unknown) => Promise<{ violations: Violation[]; passes: unknown[] }> };
  document: { documentElement: { scrollWidth: number } };
  innerWidth: number;
};


async function open(view: string, heading: string) {
  await page.goto(`${origin}/#/${view}`);
  await expect.poll(() => page.getByRole('heading', { name: heading, level: 2 }).first().isVisible(), { timeout: 10_000 }).toBe(true);
  // Lazy views and their first loads settle before axe looks.
  await page.waitForLoadState('networkidle');
}

async function violations(): Promise<Violation[]> {
  // Evaluated rather than added as a <script>: the daemon's Content-Security-Policy forbids inline scripts.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as PageGlobals;
    const results = await axe.run(document);
    // An axe that checked nothing would pass anything.
    if (results.passes.length === 0) throw new Error('axe ran no checks');
    return results.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target, failureSummary }) => ({ target, failureSummary })) }));
  });
}

beforeAll(async () => {
  if (skip) return;
  webRoot = await buildWebUi();
  dataDir = tempDir('steward-a11y-');
  daemon = await startDaemon(dataDir, ['--port', '0'], { STEWARD_WEB_ROOT: webRoot });
  const loginLink = loginLinkOf(daemon);
  origin = new URL(loginLink).origin;
  browser = await launchChromium();
  page = await browser.context.newPage();
  await page.goto(loginLink);
  // Something in every view: an automation, a webhook with a run, a secret, a notification channel, MCP servers.
  await api('POST', '/api/automations', { name: 'Standup notes', prompt: 'Summarise yesterday.', cronExpression: '30 8 * * 1-5' });
  const { webhook } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deploy report: {{payload}}' });
  await fetch(`${origin}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', body: 'api 1.4.2' });
  await api('PUT', '/api/secrets/OPENROUTER_KEY', { value: 'sk-example' });
  // A notification channel whose test failed: Settings shows its failed badge and error.
  const { channel } = await api<{ channel: { id: string } }>('POST', '/api/notification-channels', { name: 'Ops pager', kind: 'slack', url: 'http://127.0.0.1:9/services/T0/B0/x' });
  await api('POST', `/api/notification-channels/${channel.id}/test`, {});
  await api('PATCH', '/api/settings', { mcpServers: [{ name: 'everything', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }, { name: 'docs', transport: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'OPENROUTER_KEY' } }] });
  // The page read the settings when it loaded, before these.
  await page.reload();
  fs.mkdirSync(artifacts, { recursive: true });
  if (updateDocs) fs.mkdirSync(docs, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  for (const dir of [dataDir, webRoot]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('accessibility', () => {
  for (const theme of themes) {
    for (const width of [1280, 800]) {
      it(`has no axe violations in any view, ${theme}, ${width} px wide`, async () => {
        await page.emulateMedia({ colorScheme: theme });
        await page.setViewportSize({ width, height: 800 });
        const found: Record<string, Violation[]> = {};
        for (const [view, heading] of views) {
          await open(view, heading);
          const name = width === 1280 ? `${view}-${theme}` : `${view}-${theme}-${width}`;
          const file = path.join(artifacts, `${name}.png`);
          await page.screenshot({ path: file, fullPage: true });
          if (updateDocs) fs.copyFileSync(file, path.join(docs, `${name}.png`));
          const problems = await violations();
          if (problems.length > 0) found[view] = problems;
          if (width === 800 && (view === 'activity' || view === 'runs')) {
            const overflow = await page.evaluate(() => {
              const { document, innerWidth } = globalThis as unknown as PageGlobals;
              return document.documentElement.scrollWidth - innerWidth;
            });
            expect(overflow, `sideways scroll on ${view}`).toBeLessThanOrEqual(0);
          }
        }
        if (Object.keys(found).length > 0) console.log(`axe violations (${theme}, ${width} px):\n${JSON.stringify(found, null, 2)}`);
        expect(found).toEqual({});
      }, 120_000);
    }
  }

  it('has no axe violations with an MCP server open in its editor', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await open('settings', 'Settings');
    await page.getByRole('button', { name: 'Edit docs' }).click();
    await expect.poll(() => page.getByLabel('Header 1 secret').isVisible()).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'settings-mcp-editor.png'), fullPage: true });
    expect(await violations()).toEqual([]);
  }, 60_000);
});
