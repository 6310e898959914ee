import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Integration suites start their own sandbox and SQLite files; two cores on CI machines.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
  },
});
