// Regenerates docs/screenshots/<view>-390.png and <view>-1280.png: runs the layout test
// (test/e2e/layout.test.ts, every view in real Chromium with seeded data) with UPDATE_SCREENSHOTS=1,
// then names the files in docs/screenshots/ that no page of docs/ nor the README shows any more.
//   npm run docs:screenshots
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const shots = path.join(root, 'docs', 'screenshots');
const vitest = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'test/e2e/layout.test.ts'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, UPDATE_SCREENSHOTS: '1' },
});
const pages = [path.join(root, 'README.md'), ...fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => path.join(root, 'docs', name))];
const text = pages.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
const unused = fs.readdirSync(shots).filter((name) => !text.includes(`screenshots/${name}`));
if (unused.length > 0) console.log(`Shown by no page of docs/ or the README (delete them, or show them): ${unused.join(', ')}`);
process.exit(vitest.status ?? 1);
