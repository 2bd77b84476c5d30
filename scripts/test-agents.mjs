#!/usr/bin/env node
// npm run test:agents: installs the pinned agent CLIs, then runs the conformance suite
// (test/agents) against them. Where this machine lets it (root with unshare), the suite runs in a
// network namespace that has only loopback, so nothing in it can reach the internet.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const run = (command, args) => spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

if (run(process.execPath, [path.join(root, 'scripts/install-agent-clis.mjs')]) !== 0) process.exit(1);

const vitest = [path.join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--config', 'vitest.agents.config.ts', ...process.argv.slice(2)];
const isolated = spawnSync('unshare', ['-n', 'true']).status === 0;
if (isolated) {
  console.log('agent conformance: in a network namespace with only loopback (unshare -n)');
  const quoted = [process.execPath, ...vitest].map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(' ');
  process.exit(run('unshare', ['-n', 'sh', '-c', `ip link set lo up && exec ${quoted}`]));
}
console.log('agent conformance: unshare -n is not available here (needs root on Linux); running with the network as it is');
process.exit(run(process.execPath, vitest));
