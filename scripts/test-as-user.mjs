#!/usr/bin/env node
// npm run test:sandbox-as-user: the sandbox suites (test/sandbox, the attacks among them) again as an
// ordinary user. The sandbox must hold whoever runs Steward, and root and a user take different
// paths through bubblewrap (a root caller keeps every capability unless told otherwise), so
// `npm test` (as root in CI) is not enough. As root on Linux, this makes the user steward-ci
// (useradd -m) when it is missing and runs vitest as it (runuser), with its own HOME, the tests'
// temp folder writable by it, and vitest's config compiled in memory (vite otherwise writes it under
// node_modules, which that user may not write). Not root, or not Linux: it says so and runs the
// suites as the user it is. Arguments are passed to vitest (default: test/sandbox, and the
// configuration folder's boundary, test/config/folder-safety.test.ts).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const user = 'steward-ci';
// vitest.config.ts gives the tests this folder as TMPDIR; it is shared by every user who runs them.
const testTmp = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : '/tmp', 'steward-tests');
const vitest = [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--configLoader', 'runner', ...(process.argv.length > 2 ? process.argv.slice(2) : ['test/sandbox', 'test/config/folder-safety.test.ts'])];

const run = (command, args, options = {}) => spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options }).status ?? 1;
const quiet = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'ignore' }).status === 0;

if (process.platform !== 'linux' || process.getuid?.() !== 0) {
  const who = process.platform === 'linux' ? `uid ${process.getuid?.()}` : process.platform;
  console.log(`sandbox suites as a user: not root on Linux (${who}), so they run as this user, as they are`);
  process.exit(run(process.execPath, vitest));
}

if (!quiet('id', ['-u', user])) {
  console.log(`sandbox suites as a user: creating the user ${user} (useradd -m)`);
  if (run('useradd', ['-m', '-s', '/bin/sh', user]) !== 0) process.exit(1);
}
const home = spawnSync('sh', ['-c', `getent passwd ${user} | cut -d: -f6`], { encoding: 'utf8' }).stdout.trim() || `/home/${user}`;
fs.mkdirSync(testTmp, { recursive: true });
// Sticky and writable by all, like /tmp: each user's tests make their own folders in it.
fs.chmodSync(testTmp, 0o1777);

// The user must be able to read the checkout and run Node from where it is; say which is missing.
const asUser = (args) => spawnSync('runuser', ['-u', user, '--', ...args], { cwd: '/', stdio: 'ignore' }).status === 0;
const needs = [
  [['test', '-x', process.execPath], `Node (${process.execPath})`],
  [['test', '-r', path.join(root, 'package.json')], `the checkout (${root})`],
  [['test', '-r', path.join(root, 'node_modules/vitest/vitest.mjs')], `its node_modules (${path.join(root, 'node_modules')})`],
];
const unreadable = needs.filter(([check]) => !asUser(check)).map(([, what]) => what);
if (unreadable.length > 0) {
  console.error(`sandbox suites as a user: ${user} cannot read ${unreadable.join(', ')}; put the checkout and Node where every user may read them (chmod o+rx on the folders above it)`);
  process.exit(1);
}

console.log(`sandbox suites as a user: running as ${user} (uid ${spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim()}), HOME=${home}`);
const env = {
  PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
  HOME: home,
  USER: user,
  LOGNAME: user,
  LANG: process.env.LANG ?? 'C.UTF-8',
  TMPDIR: testTmp,
  ...(process.env.CI === undefined ? {} : { CI: process.env.CI }),
};
// runuser resets part of the environment; env(1) sets exactly this one.
const assignments = Object.entries(env).map(([name, value]) => `${name}=${value}`);
process.exit(run('runuser', ['-u', user, '--', 'env', '-i', ...assignments, process.execPath, ...vitest]));
