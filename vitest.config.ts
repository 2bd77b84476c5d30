// Tests run under plain Node: real SQLite files, real loopback sockets, real child processes.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // The real-CLI conformance suite has its own config and command (npm run test:agents).
    exclude: ['test/agents/**', '**/node_modules/**'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
