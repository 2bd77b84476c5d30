// The places in a home folder where a user's credentials live: keys, cloud and registry logins,
// password stores, browser profiles and keychains. A sandboxed agent never reads them.
import path from 'node:path';

const everywhere = [
  '.ssh',
  '.aws',
  '.gnupg',
  '.config/gcloud',
  '.azure',
  '.kube',
  '.docker/config.json',
  '.netrc',
  '.git-credentials',
  '.config/git/credentials',
  '.config/gh',
  '.config/hub',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.gem/credentials',
  '.terraform.d/credentials.tfrc.json',
  '.vault-token',
  '.config/op',
  '.password-store',
  '.pki',
];

const linux = [
  '.local/share/keyrings',
  '.mozilla',
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.config/vivaldi',
  '.config/opera',
  'snap/firefox',
  'snap/chromium',
];

const macos = [
  'Library/Keychains',
  'Library/Cookies',
  'Library/Safari',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Chromium',
  'Library/Application Support/Firefox',
  'Library/Application Support/BraveSoftware',
  'Library/Application Support/Microsoft Edge',
  'Library/Application Support/com.apple.TCC',
];

/** The credential stores under `home` on `platform`, whether they exist or not. */
export function credentialStores(home: string, platform: NodeJS.Platform = process.platform): string[] {
  const own = platform === 'darwin' ? macos : linux;
  return [...everywhere, ...own].map((relative) => path.join(home, relative));
}
