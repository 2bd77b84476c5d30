// The end-to-end fixture: each file in test/e2e calls `useE2e` once and gets its own real daemon
// (`steward serve` on a fresh data folder, serving the web UI the run built once) and its own
// browser context in the run's one Chromium (both from e2e-setup.ts), with a first page logged in.
// Where Chromium is missing the file skips with one line naming what to install
// (requirements.ts), as before; under CI that fails instead.
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { loginLinkOf, pageApi } from './browser';
import { tempDir } from './temp';
import { type Server, root, startDaemon } from './processes';
import { lacks } from './requirements';

/** Where end-to-end files keep their screenshots (made before the first test). */
export const artifacts = path.join(root, 'test-artifacts');

export interface E2eOptions {
  /** Names the daemon's data folder: steward-e2e-<name>-. */
  name: string;
  /** The daemon's whole PATH a folder with only sh and cat (`bareBin`): no agent CLI to find. */
  barePath?: boolean;
  /** The context's options; a 1280×800 viewport unless they say otherwise. */
  context?: BrowserContextOptions;
  /** Done to the context before its first page opens: init scripts, permissions for the origin. */
  prepare?: (context: BrowserContext, origin: string) => Promise<unknown>;
  /** Whether the first page opens the one-time login link (yes unless the test opens it itself). */
  login?: boolean;
}

export interface E2e {
  /** True where Chromium is missing: give it to describe.skipIf. */
  readonly skip: boolean;
  readonly daemon: Server;
  readonly dataDir: string;
  readonly loginLink: string;
  readonly origin: string;
  /** The run's Chromium, for more contexts (a phone's, with no session); close those you open. */
  readonly browser: Browser;
  readonly context: BrowserContext;
  /** The first page; logged in unless `login: false`. */
  readonly page: Page;
  /** The API through the first page, its session cookie the credential: to seed data or check what a click did. */
  api: <T = Record<string, never>>(method: string, route: string, body?: unknown) => Promise<T>;
}

interface Started {
  daemon: Server;
  dataDir: string;
  loginLink: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/** A folder for a daemon's whole PATH: a shell and cat, for a custom command, and no agent CLI. The caller removes it. */
export function bareBin(): string {
  const bin = tempDir('steward-e2e-bin-');
  for (const tool of ['sh', 'cat']) fs.symlinkSync(fs.realpathSync(`/bin/${tool}`), path.join(bin, tool));
  return bin;
}

async function connect(): Promise<Browser> {
  const endpoint = inject('e2eBrowser');
  if (!endpoint) throw new Error("No browser for this file: run it with vitest.config.ts, whose e2e project's global setup (test/support/e2e-setup.ts) starts one.");
  return chromium.connect(endpoint);
}

/** Registers the file's (or the describe's) beforeAll and afterAll; the handle's fields are there from the first test on. */
export function useE2e(options: E2eOptions): E2e {
  const skip = lacks('chromium');
  let started: Started | undefined;
  const need = (): Started => {
    if (started === undefined) throw new Error('the end-to-end fixture has not started (read its fields in hooks and tests, not at load)');
    return started;
  };
  const release: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    if (skip) return;
    fs.mkdirSync(artifacts, { recursive: true });
    const dataDir = tempDir(`steward-e2e-${options.name}-`);
    release.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = { STEWARD_WEB_ROOT: inject('e2eWebRoot') };
    if (options.barePath) {
      const bin = bareBin();
      release.push(() => fs.rmSync(bin, { recursive: true, force: true }));
      env.PATH = bin;
    }
    const daemon = await startDaemon(dataDir, ['--port', '0'], env);
    release.push(() => daemon.stop());
    const loginLink = loginLinkOf(daemon);
    const browser = await connect();
    // Disconnecting closes the contexts this file opened; the browser stays for the other files.
    release.push(() => browser.close());
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options.context });
    await options.prepare?.(context, new URL(loginLink).origin);
    const page = await context.newPage();
    // An uncaught error in the page would otherwise only show as a missing element.
    page.on('pageerror', (error) => process.stderr.write(`page error: ${error.stack}\n`));
    if (options.login !== false) await page.goto(loginLink);
    started = { daemon, dataDir, loginLink, browser, context, page };
  }, 60_000);

  afterAll(async () => {
    // Each step in reverse, every one of them even after one fails.
    const failures: unknown[] = [];
    for (const step of release.splice(0).reverse()) await Promise.resolve().then(step).catch((error: unknown) => failures.push(error));
    if (failures.length > 0) throw failures[0];
  });

  return {
    skip,
    get daemon() {
      return need().daemon;
    },
    get dataDir() {
      return need().dataDir;
    },
    get loginLink() {
      return need().loginLink;
    },
    get origin() {
      return new URL(need().loginLink).origin;
    },
    get browser() {
      return need().browser;
    },
    get context() {
      return need().context;
    },
    get page() {
      return need().page;
    },
    api: pageApi(() => need().page),
  };
}
