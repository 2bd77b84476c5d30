#!/usr/bin/env node
// Installs what test/mcp-conformance runs: the official MCP conformance suite, pinned in
// test/mcp-conformance/suite/package.json, into .cache/mcp-conformance, and the Node 22 it needs
// (it imports fs.globSync, which Node 20 lacks) into .cache/node-22 (scripts/node-runtimes.mjs).
// Each is skipped when the cache already holds that version. Run by `npm test`'s provisioning.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { installNode } from './node-runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const manifest = path.join(root, 'test/mcp-conformance/suite/package.json');
const target = path.join(root, '.cache/mcp-conformance');
const [[name, version]] = Object.entries(JSON.parse(fs.readFileSync(manifest, 'utf8')).dependencies);

function installedVersion() {
  try {
    return JSON.parse(fs.readFileSync(path.join(target, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

try {
  installNode(22);
  if (installedVersion() !== version) {
    console.log(`MCP conformance: installing ${name}@${version} into .cache/mcp-conformance`);
    fs.mkdirSync(target, { recursive: true });
    fs.copyFileSync(manifest, path.join(target, 'package.json'));
    // npm runs on the default Node here: its warnings that a dependency wants Node 22 are expected.
    const installed = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error'], { cwd: target, stdio: 'inherit' });
    if (installed.status !== 0 || installedVersion() !== version) throw new Error(`npm could not install ${name}@${version}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
