// The benchmarks measure the daemon as installed: the built out/main/cli.js, rebuilt first when
// older than its sources (scripts/ensure-build.mjs).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../test/support/processes';

export const builtCli = path.join(root, 'out/main/cli.js');

export function ensureBuilt(): void {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/ensure-build.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the build failed');
}

/** Runs the built CLI to completion and returns its stdout; throws when it fails. */
export function runBuiltCli(args: string[]): string {
  const result = spawnSync(process.execPath, [builtCli, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`steward ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
