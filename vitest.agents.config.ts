// The real-CLI conformance suite (npm run test:agents): real agent CLIs against scripted model
// servers on loopback, through a real Steward daemon. Slow, so apart from `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/agents/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
