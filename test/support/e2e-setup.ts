// The end-to-end project's global setup (vitest.config.ts), run once per `vitest run` in vitest's
// main process and only when an end-to-end file is among those run: it builds the web UI into a
// temp folder and starts the one Chromium every end-to-end file connects to (a browser context
// each; e2e.ts). Once per run rather than a cache kept between runs: a cache keyed on the
// renderer's sources would have to name every input of the build (sources, shared code, config,
// dependencies) to never serve a stale UI, and building takes seconds where nineteen took minutes.
// Where Chromium is missing, nothing is built or started: the files skip, naming what to install.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';
import { chromiumLaunchOptions, chromiumPath } from './chromium';
import { executable } from './programs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built web UI, served by each file's daemon (STEWARD_WEB_ROOT); '' without Chromium. */
    e2eWebRoot: string;
    /** Where to connect to the run's Chromium (playwright's connect); '' without it. */
    e2eBrowser: string;
  }
}

const root = path.resolve(import.meta.dirname, '../..');

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!executable(chromiumPath)) {
    project.provide('e2eWebRoot', '');
    project.provide('e2eBrowser', '');
    return async () => {};
  }
  // Beside the tests' other temp folders (vitest.config.ts sets TMPDIR for the workers, not here).
  const tmp = project.config.env?.TMPDIR ?? os.tmpdir();
  const webRoot = fs.mkdtempSync(path.join(tmp, 'steward-e2e-web-'));
  // The browser starts while the UI builds; whichever fails, the other is not left behind.
  const launching = chromium.launchServer(chromiumLaunchOptions);
  try {
    await build({ configFile: path.join(root, 'vite.web.config.ts'), logLevel: 'warn', build: { outDir: webRoot, emptyOutDir: true } });
  } catch (error) {
    await launching.then((server) => server.close(), () => {});
    fs.rmSync(webRoot, { recursive: true, force: true });
    throw error;
  }
  const server = await launching.catch((error: unknown) => {
    fs.rmSync(webRoot, { recursive: true, force: true });
    throw error;
  });
  project.provide('e2eWebRoot', webRoot);
  project.provide('e2eBrowser', server.wsEndpoint());
  return async () => {
    await server.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  };
}
