import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, "vitest: N passed, N failed, N skipped",
 * so that CI reads the count whatever runner formats it prefers.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A module that failed to load counts as a failure even with no test in it.
      if (mod.state() === 'failed' && mod.children.size === 0) failed++;
    }
    failed += errors.length;
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
