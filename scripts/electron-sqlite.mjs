// Builds better-sqlite3 for Electron's ABI into out/native/electron-<abi>/better_sqlite3.node, for
// `npm start`, `npm run dev` and `npm run dist` (the package carries this file, unpacked from
// app.asar; src/main/shell/app-paths.ts finds it in both layouts). The Node build in node_modules is
// left alone: the tests and `steward serve` run on it. This is never run from install scripts: it
// needs the network (a prebuilt binary from GitHub, or Electron's headers from electronjs.org),
// which a plain `npm install` must not.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(import.meta.dirname, '..');
const electronVersion = require('electron/package.json').version;
const abi = fs.readFileSync(path.join(path.dirname(require.resolve('electron/package.json')), 'abi_version'), 'utf8').trim();
const target = path.join(root, 'out', 'native', `electron-${abi}`, 'better_sqlite3.node');

if (fs.existsSync(target)) process.exit(0);

const source = path.dirname(require.resolve('better-sqlite3/package.json'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'steward-electron-sqlite-'));
const copy = path.join(work, 'better-sqlite3');
fs.cpSync(source, copy, { recursive: true, filter: (file) => !file.startsWith(path.join(source, 'build')) });

// npm passes its nodedir setting down; node-gyp would then build against Node's headers instead
// of Electron's and produce a module Electron refuses to load.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(nodedir|target|runtime|disturl|dist_url)$/i.test(key)));
const run = (script, args) => spawnSync(process.execPath, [script, ...args], { cwd: copy, env, stdio: 'inherit' }).status === 0;

console.log(`Building better-sqlite3 for Electron ${electronVersion} (ABI ${abi})…`);
const built =
  run(require.resolve('prebuild-install/bin.js'), ['--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]) ||
  run(require.resolve('node-gyp/bin/node-gyp.js'), ['rebuild', '--release', `--target=${electronVersion}`, '--runtime=electron', '--dist-url=https://electronjs.org/headers', `--arch=${process.arch}`]);

if (!built) {
  fs.rmSync(work, { recursive: true, force: true });
  console.error('Could not build better-sqlite3 for Electron: this needs the network once (GitHub or electronjs.org).');
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(path.join(copy, 'build', 'Release', 'better_sqlite3.node'), target);
fs.rmSync(work, { recursive: true, force: true });
console.log(`Wrote ${path.relative(root, target)}`);
