#!/usr/bin/env node
// Installs the pinned agent CLIs of the conformance suite (test/agents/clis/package.json) into
// .cache/agent-clis, outside Steward's dependencies: they weigh over a gigabyte. Skips the install
// when the folder already holds exactly those versions. `npm install`, not `npm ci`: npm 11's lock
// for opencode-ai's platform packages is refused by `npm ci` on another platform.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const manifest = path.join(root, 'test/agents/clis/package.json');
const target = path.join(root, '.cache/agent-clis');
const wanted = JSON.parse(fs.readFileSync(manifest, 'utf8')).dependencies;

function installedVersion(name) {
  try {
    return JSON.parse(fs.readFileSync(path.join(target, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const stale = Object.entries(wanted).filter(([name, version]) => installedVersion(name) !== version);
if (stale.length === 0) {
  console.log(`agent CLIs: ${Object.entries(wanted).map(([n, v]) => `${n}@${v}`).join(', ')} (cached in .cache/agent-clis)`);
} else {
  console.log(`agent CLIs: installing ${stale.map(([n, v]) => `${n}@${v}`).join(', ')} into .cache/agent-clis`);
  fs.mkdirSync(target, { recursive: true });
  fs.copyFileSync(manifest, path.join(target, 'package.json'));
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: target, stdio: 'inherit' });
}
