// Real Chromium (Debian's package, installed by `npm test` where it can and by .ci/run) driven by
// playwright-core, with a fresh profile per launch. Suites check that it is there first
// (requirements.ts).
import fs from 'node:fs';
import path from 'node:path';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
import { build } from 'vite';
import { tempDir } from './core';
import { type Server, root } from './processes';
import { chromiumPath } from './requirements';

/** The web UI built into a fresh folder (the daemon serves it with STEWARD_WEB_ROOT). */
export async function buildWebUi(): Promise<string> {
  const webRoot = tempDir('steward-e2e-web-');
  await build({ configFile: path.join(root, 'vite.web.config.ts'), logLevel: 'warn', build: { outDir: webRoot, emptyOutDir: true } });
  return webRoot;
}

/** The one-time login link the daemon printed when it started. */
export const loginLinkOf = (daemon: Server): string => /(http:\/\/\S+\/login\?token=\S+)/.exec(daemon.output().stdout)![1];

export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!fs.existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH.`);
  const profile = tempDir('steward-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 800 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A call of the API through a logged-in tab (its session cookie is the credential), to seed data or check what a click did. */
export function pageApi(page: () => Page) {
  return <T = Record<string, never>>(method: string, route: string, body?: unknown): Promise<T> =>
    page().evaluate(
      async ({ method, route, body }) => (await fetch(route, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })).json() as Promise<T>,
      { method, route, body },
    );
}
