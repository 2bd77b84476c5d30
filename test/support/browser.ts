// Real Chromium (Debian's package, installed by .ci/run) driven by playwright-core, with a fresh
// profile per launch.
import fs from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { tempDir } from './core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  if (!fs.existsSync(chromiumPath)) throw new Error(`No Chromium at ${chromiumPath}: apt-get install -y chromium (the CI script does), or set CHROMIUM_PATH.`);
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
