// Before `npm run serve`, `npm run cli` and the startup benchmark: builds out/ (the daemon, the
// desktop shell and the web UI) when it is missing or older than its sources, so what runs is
// always the built JavaScript of the code in the tree.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const outputs = ['out/main/cli.js', 'out/renderer/index.html'].map((file) => path.join(root, file));
const inputs = ['src', 'package.json', 'electron.vite.config.ts', 'vite.web.config.ts'].map((file) => path.join(root, file));

function newest(file) {
  const stat = fs.statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let time = 0;
  for (const entry of fs.readdirSync(file)) time = Math.max(time, newest(path.join(file, entry)));
  return time;
}

export function isBuildStale() {
  if (!outputs.every((file) => fs.existsSync(file))) return true;
  const built = Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs));
  return Math.max(...inputs.map(newest)) > built;
}

export function ensureBuild() {
  if (!isBuildStale()) return;
  process.stderr.write('Building Steward (out/)…\n');
  const result = spawnSync(process.execPath, [path.join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) ensureBuild();
