#!/usr/bin/env node
// `npm run test:node-versions [-- 24] [-- test/cli/pack.test.ts -t name]`: the daemon's API, CLI
// and distribution tests (test/api and test/cli, or the test files named) on the Nodes users have
// besides the default 20. For each major (all pinned in scripts/node-runtimes.mjs unless named):
// its Node from the npm registry and better-sqlite3 built for it, both cached in
// .cache/node-<major>, then vitest on that Node, with that Node first on PATH (npm and the
// installed tarball's `steward` run on it too) and STEWARD_SQLITE_BINDING naming the build, so
// every core the tests start, in process or spawned, loads it. Every major runs even when one
// fails; the exit status is 1 if any did.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildSqlite, installNode, pinnedNodes } from './node-runtimes.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const isMajor = (arg) => Object.hasOwn(pinnedNodes, arg);
const asked = args.filter(isMajor);
const vitestArgs = args.filter((arg) => !isMajor(arg));
const files = vitestArgs.some((arg) => arg.startsWith('test/')) ? [] : ['test/api', 'test/cli'];
const majors = asked.length > 0 ? asked : Object.keys(pinnedNodes);
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

const results = [];
for (const major of majors) {
  const started = performance.now();
  let outcome;
  try {
    const runtime = installNode(major);
    const binding = buildSqlite(runtime);
    const prepared = seconds(started);
    console.log(`\nNode ${runtime.version}: vitest run ${[...files, ...vitestArgs].join(' ')} (better-sqlite3 from ${path.relative(root, binding)})`);
    const testsStarted = performance.now();
    const env = { ...process.env, PATH: `${runtime.binDir}${path.delimiter}${process.env.PATH ?? ''}`, STEWARD_SQLITE_BINDING: binding };
    const vitest = [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', ...files, ...vitestArgs];
    const run = spawnSync(runtime.node, vitest, { cwd: root, env, stdio: 'inherit' });
    outcome = { passed: run.status === 0, line: `Node ${runtime.version}: ${run.status === 0 ? 'passed' : `FAILED (${run.signal ?? `exit ${run.status}`})`} — tests ${seconds(testsStarted)}, setup ${prepared}` };
  } catch (error) {
    outcome = { passed: false, line: `Node ${major}: FAILED before the tests — ${error instanceof Error ? error.message : String(error)}` };
  }
  console.log(outcome.line);
  results.push(outcome);
}

console.log(`\n${results.map((result) => result.line).join('\n')}`);
process.exit(results.every((result) => result.passed) ? 0 : 1);
