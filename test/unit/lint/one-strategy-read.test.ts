import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One strategy read (docs/book.md, "Refresh failed"): the client's strategy read is asked, its
 * answer stored and its "Refresh failed" set or ended in `electron/core/strategies/sync.ts`
 * alone, whoever reads (the book, the confirmation, a batch's review and send, tracking). A
 * second path would store an answer without ending the failure, or fail without noting it.
 */
const root = join(__dirname, '..', '..', '..');
const THE_READ = 'electron/core/strategies/sync.ts';
const THE_REPOSITORY = 'electron/core/store/repositories/strategies.ts';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The app's files (outside the repository itself) where `pattern` occurs, sorted. */
function filesWith(pattern: RegExp): string[] {
  return sources(join(root, 'electron'))
    .map((path) => relative(root, path).split('\\').join('/'))
    .filter(
      (file) => file !== THE_REPOSITORY && pattern.test(readFileSync(join(root, file), 'utf8')),
    )
    .sort();
}

describe('one strategy read', () => {
  it('asks the service for a strategy in one place', () => {
    expect(filesWith(/\.getStrategy\(/)).toEqual([THE_READ]);
  });

  it('stores a read strategy, and sets or ends its "Refresh failed", in that place only', () => {
    expect(filesWith(/strategies\s*\.\s*(recordRead|recordReadTogether|recordStored)\(/)).toEqual([
      THE_READ,
    ]);
    expect(filesWith(/\.recordReadFailure\(/)).toEqual([THE_READ]);
  });
});
