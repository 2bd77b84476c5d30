// The real-CLI conformance suite (npm run test:agents): real agent CLIs against scripted model
// servers on loopback, through a real Steward daemon. Slow, so apart from `npm test`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const testTmp = path.join(fs.existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir(), 'steward-tests');
fs.mkdirSync(testTmp, { recursive: true });

export default defineConfig({
  test: {
    include: ['test/agents/**/*.test.ts'],
    environment: 'node',
    // Folders where a user's are, outside /tmp: a sandboxed run has a private /tmp and would not see them there.
    env: { TMPDIR: testTmp },
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
