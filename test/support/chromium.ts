// How the tests start Chromium (Debian's package, driven by playwright-core), in one place: the
// end-to-end run's one browser (e2e-setup.ts) and the suites that start their own
// (phone-browser.ts). No vitest import here: the global setup loads it in vitest's main process.
import type { LaunchOptions } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** A fresh profile each launch; no sandbox (tests run as root), GPU, QUIC, sync nor background traffic. */
export const chromiumLaunchOptions: LaunchOptions = {
  executablePath: chromiumPath,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
};
