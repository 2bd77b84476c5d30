// Tests run under plain Node: real SQLite files, real loopback sockets, real child processes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Vitest starts the longest files first once it has timed them, and the largest before that, on a
 * fresh clone. The files that mostly wait for the wall clock go first from the start, so that their
 * wait overlaps the rest instead of trailing it.
 */
const waitsForTheClock = ['test/cli/scheduler-daemon.test.ts'];
class ClockWaitersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (spec: TestSpecification) => waitsForTheClock.some((file) => spec.moduleId.endsWith(file));
    return [...sorted.filter(waits), ...sorted.filter((spec) => !waits(spec))];
  }
}

const testTmp = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'steward-tests');
fs.mkdirSync(testTmp, { recursive: true });

const excluded = ['test/agents/**', '**/node_modules/**'];
const endToEnd = 'test/e2e/**/*.test.ts';

export default defineConfig({
  test: {
    // Folders where a user's are, outside /tmp: a sandboxed run has a private /tmp and would not see them there.
    env: { TMPDIR: testTmp },
    environment: 'node',
    pool: 'forks',
    // Vitest's default, one worker fewer than cores, is a single worker on two cores; but much
    // of these tests' time is spent waiting on real clocks, child processes and sockets.
    maxWorkers: Math.max(os.availableParallelism() - 1, 2),
    sequence: { sequencer: ClockWaitersFirst },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two projects for one setup: the end-to-end files' global setup builds the web UI and starts
    // the one Chromium they share, and runs only when one of them is in the run. Both projects
    // share one pool of workers (the same groupOrder), so the longest files still start first.
    // Each names its own files: a project that extends this config adds its include and exclude
    // to any set here (they are merged, not replaced), so none is set here.
    projects: [
      { extends: true, test: { name: 'e2e', include: [endToEnd], exclude: excluded, globalSetup: ['test/support/e2e-setup.ts'] } },
      // The real-CLI conformance suite has its own config and command (npm run test:agents).
      { extends: true, test: { name: 'core', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'], exclude: [...excluded, endToEnd] } },
    ],
  },
});
