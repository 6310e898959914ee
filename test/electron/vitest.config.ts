import { defineConfig } from 'vitest/config';

/** `npm run test:electron` only (test/electron/run.ts): never part of `npm test`. */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/electron/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
