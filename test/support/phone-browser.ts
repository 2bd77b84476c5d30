// Real Chromium as a browser with separate contexts, for a phone's view: a fresh context at
// 390×844 that has no session (the decision link needs none), beside a logged-in one. For suites
// outside test/e2e; those share the run's one browser (e2e.ts).
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { chromiumLaunchOptions, chromiumPath } from './chromium';

export const phoneViewport = { width: 390, height: 844 };

export async function launchChromiumBrowser(): Promise<Browser> {
  if (!fs.existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH.`);
  return chromium.launch(chromiumLaunchOptions);
}
