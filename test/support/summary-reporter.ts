import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the run names, so CI's log says where its minutes went. */
const SLOWEST = 15;

/**
 * Prints the slowest files, then one plain closing line, "vitest: N passed, N failed, N skipped",
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
    const slowest = testModules
      .map((mod) => {
        const d = mod.diagnostic();
        return { file: mod.relativeModuleId, ms: d.collectDuration + d.duration };
      })
      .sort((a, b) => b.ms - a.ms || a.file.localeCompare(b.file))
      .slice(0, SLOWEST);
    // Where the minutes went by kind of test: worker time summed, not wall time.
    const byFolder = new Map<string, number>();
    for (const mod of testModules) {
      const d = mod.diagnostic();
      const folder = /^test\/([^/]+)\//.exec(mod.relativeModuleId)?.[1] ?? 'other';
      byFolder.set(folder, (byFolder.get(folder) ?? 0) + d.collectDuration + d.duration);
    }
    const folders = [...byFolder]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([folder, ms]) => `${folder} ${(ms / 1000).toFixed(0)} s`);
    process.stdout.write(`\nworker time by folder: ${folders.join(', ')}\n`);
    process.stdout.write(`\nslowest files (import + tests):\n`);
    for (const { file, ms } of slowest)
      process.stdout.write(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${file}\n`);
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
