import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // The renderer's rune modules (`*.svelte.ts`) are compiled as the app's build compiles them, so
  // its stores are unit-tested as they run.
  plugins: [svelte()],
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // `expect.poll` waits for real work (a send over HTTP, a repaint in Chromium) that takes
    // seconds on a loaded two-core machine; vitest's 1 s default made such waits flaky. A poll
    // whose condition holds returns at once, so only a failing test waits the longer time.
    expect: { poll: { timeout: 15_000, interval: 50 } },
    // Integration suites start their own sandbox and SQLite files; two cores on CI machines.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
    // A promise rejected and never handled fails the test it happened in.
    setupFiles: ['./test/support/no-unhandled-rejections.ts'],
  },
});
