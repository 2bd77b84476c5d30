// End to end: every main view of the web UI, built from source and served by a real daemon, checked
// with axe-core in real Chromium: light and dark (page.emulateMedia), at 1280 and at 800 px wide,
// with no violations allowed, and no sideways scroll on Activity and Runs at 800 px. Screenshots
// of each view in each theme go to test-artifacts/ (those of docs/screenshots/ are the layout test's:
// `npm run docs:screenshots`). The views hold
// an instance that is not sandboxed, a host a sandboxed run was refused, a run waiting for a person,
// and a remote Steward that cannot be reached; the agent form is checked open with its Sandbox
// section (a refused row, the "off" warning) in both themes, and the remote Steward form with its
// problems and a tested connection.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { artifacts, useE2e } from '../support/e2e';
import { waitFor } from '../support/wait';
import { lacks } from '../support/requirements';

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const views = [
  ['activity', 'Activity'],
  ['needs-you', 'Needs you'],
  ['chat', 'Chat'],
  ['automations', 'Automations'],
  ['agenda', 'Agenda'],
  ['webhooks', 'Webhooks'],
  ['instances', 'Instances'],
  ['runs', 'Runs'],
  ['settings', 'Settings'],
] as const;
const themes = ['light', 'dark'] as const;

let page: Page;
let origin: string;

const e2e = useE2e({ name: 'a11y' });
const { skip, api } = e2e;
const noSandbox = skip || lacks('sandbox');

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

/** A sandboxed run that tried a host it was not given; returns once its refusal is in the feed. */
async function refusedRun(): Promise<void> {
  // It fails: a run that succeeded would end the onboarding card, which Activity is checked with.
  const agent = { provider: 'command', preset: 'custom', command: 'sh', args: ['-c', 'curl -s -m 10 -o /dev/null https://evil.com/; echo tried; exit 3'] };
  const { instance } = await api<{ instance: { id: string } }>('POST', '/api/instances', { name: 'Curious', agent, sandbox: { mode: 'sandbox', network: ['api.example.com'] } });
  await waitFor(async () => (await api<{ instance: { status: string } }>('GET', `/api/instances/${instance.id}`)).instance.status === 'running', { what: 'Curious is running', timeoutMs: 15_000 });
  await api('POST', '/api/runs', { instanceId: instance.id, prompt: 'look around' });
  const refused = async () => (await api<{ events: { displayText: string }[] }>('GET', '/api/activity?kinds=system')).events.some((line) => line.displayText.startsWith('The sandbox refused'));
  await waitFor(refused, { what: 'the refusal is in the feed', timeoutMs: 15_000 });
}

beforeAll(async () => {
  if (skip) return;
  ({ page, origin } = e2e);
  // Something in every view: an automation, a webhook with a run, a secret, a notification channel, MCP servers.
  await api('POST', '/api/automations', { name: 'Standup notes', prompt: 'Summarise yesterday.', cronExpression: '30 8 * * 1-5' });
  const { webhook } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Deploys', promptTemplate: 'Deploy report: {{payload}}' });
  await fetch(`${origin}/api/webhooks/trigger/${webhook.token}`, { method: 'POST', body: 'api 1.4.2' });
  // A run that waits for a person: Needs you lists it, and the navigation counts it.
  const { webhook: gated } = await api<{ webhook: { token: string } }>('POST', '/api/webhooks', { name: 'Releases', promptTemplate: 'Release {{payload}}', approval: { mode: 'before-run', timeoutSeconds: 3600 } });
  await fetch(`${origin}/api/webhooks/trigger/${gated.token}`, { method: 'POST', body: 'api 1.5.0' });
  await api('PUT', '/api/secrets/OPENROUTER_KEY', { value: 'sk-example' });
  // A remote Steward nothing answers at: Settings lists it unreachable, Instances says so once.
  await api('PUT', '/api/secrets/laptop-key', { value: 'stw_example' });
  await api('POST', '/api/remotes', { name: 'Laptop', url: 'http://127.0.0.1:9', apiKeyRef: 'laptop-key' });
  // A notification channel whose test failed: Settings shows its failed badge and error.
  const { channel } = await api<{ channel: { id: string } }>('POST', '/api/notification-channels', { name: 'Ops pager', kind: 'slack', url: 'http://127.0.0.1:9/services/T0/B0/x' });
  await api('POST', `/api/notification-channels/${channel.id}/test`, {});
  await api('PATCH', '/api/settings', { mcpServers: [{ name: 'everything', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }, { name: 'docs', transport: 'http', url: 'https://docs.example.com/mcp', headers: { Authorization: 'OPENROUTER_KEY' } }] });
  // An instance that runs unsandboxed (its card's badge and "Sandbox it"), and a sandboxed one whose run was refused a host (its "Allow").
  await api('POST', '/api/instances', { name: 'Legacy', agent: { provider: 'command', preset: 'custom', command: 'cat' }, sandbox: { mode: 'off' } });
  if (!noSandbox) await refusedRun();
  // The page read the settings when it loaded, before these.
  await page.reload();
}, 120_000);

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
          await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
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

  it('has no axe violations with a remote Steward being added: its problems, then a tested connection', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await open('settings', 'Settings');
    expect(await page.getByRole('table', { name: 'Remote Stewards' }).getByRole('row', { name: /Laptop/ }).textContent()).toContain('unreachable');
    await page.getByRole('button', { name: 'Add remote' }).click();
    const form = page.getByRole('form', { name: 'Add a remote Steward' });
    await form.getByLabel('Remote name').fill('Desk');
    await form.getByLabel('Remote URL').fill('http://steward.example.com');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => form.getByText(/^The URL must be https:\/\//).isVisible()).toBe(true);
    expect(await violations()).toEqual([]);
    // Another address than Laptop's (Test connection says "already followed" as Add would).
    await form.getByLabel('Remote URL').fill('http://127.0.0.1:1');
    await form.getByLabel('API key').fill('stw_example');
    await form.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => form.locator('.check-result .badge.unreachable').isVisible(), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: path.join(artifacts, 'settings-remote-form.png'), fullPage: true });
    expect(await violations()).toEqual([]);
  }, 60_000);

  for (const theme of themes) {
    it(`has no axe violations with the agent form and its Sandbox section open, ${theme}`, async () => {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width: 1280, height: 800 });
      await open('instances', 'Instances');
      await page.getByRole('button', { name: 'New instance' }).click();
      const sandbox = page.getByRole('form', { name: 'New instance' }).getByRole('group', { name: 'Sandbox' });
      await sandbox.getByRole('button', { name: 'Add host' }).click();
      await sandbox.getByLabel('Allowed host 1', { exact: true }).fill('api.example.com');
      await sandbox.getByRole('button', { name: 'Add host' }).click();
      await sandbox.getByLabel('Allowed host 2', { exact: true }).fill('https://not a host/');
      await sandbox.getByRole('button', { name: 'Add hidden path' }).click();
      await sandbox.getByLabel('Hidden path 1', { exact: true }).fill('~/private');
      await sandbox.getByRole('button', { name: 'Add writable path' }).click();
      await sandbox.getByLabel('Writable path 1', { exact: true }).fill('~/notes');
      await sandbox.getByRole('radio', { name: /^Off: / }).check();
      await expect.poll(() => sandbox.getByRole('status').textContent()).toContain('Not sandboxed');
      // The badge and "Sandbox it" of the instance that runs unsandboxed are on the same page.
      expect(await page.getByRole('article', { name: 'Legacy' }).getByRole('button', { name: 'Sandbox it' }).isVisible()).toBe(true);
      await page.screenshot({ path: path.join(artifacts, `instances-sandbox-form-${theme}.png`), fullPage: true });
      expect(await violations()).toEqual([]);
    }, 60_000);
  }

  it.skipIf(noSandbox)('offers "Allow" beside a refused host in the activity feed, with no axe violations', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await open('activity', 'Activity');
    await expect.poll(() => page.getByRole('log', { name: 'Activity stream' }).getByRole('button', { name: 'Allow evil.com' }).isVisible()).toBe(true);
    expect(await violations()).toEqual([]);
  }, 60_000);
});
