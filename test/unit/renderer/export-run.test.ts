import { describe, expect, it } from 'vitest';
import type { DeskEventOf } from '../../../shared/contract';
import type { ExportResult } from '../../../shared/views';
import { Listeners } from '../../../shared/listeners';
import { ExportRun } from '../../../renderer/src/lib/stores/export-run.svelte';

/** A desk export held open until the test ends it, as a long export is. */
function heldExport() {
  let id = '';
  let end!: (result: ExportResult) => void;
  const write = (exportId: string) => {
    id = exportId;
    return new Promise<ExportResult>((resolve) => (end = resolve));
  };
  return {
    write,
    id: () => id,
    end: (rows: number) => end({ exportId: id, path: `/x/${id}.csv`, rows, bytes: rows }),
  };
}

describe('an export as a screen follows it', () => {
  it('hears only its own export’s progress: two at once show two progresses', async () => {
    const progress = new Listeners<DeskEventOf<'export-progress'>>();
    const book = new ExportRun(progress);
    const holdings = new ExportRun(progress);
    const a = heldExport();
    const b = heldExport();
    const first = book.start(a.write);
    const second = holdings.start(b.write);
    expect(a.id()).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.id()).not.toBe(b.id());
    progress.emit({ type: 'export-progress', exportId: a.id(), rows: 10_000, done: false });
    progress.emit({ type: 'export-progress', exportId: b.id(), rows: 30_000, done: false });
    progress.emit({ type: 'export-progress', exportId: 'another', rows: 90_000, done: false });
    expect([book.rows, holdings.rows]).toEqual([10_000, 30_000]);
    expect([book.running, holdings.running]).toEqual([true, true]);
    a.end(12_000);
    await first;
    expect([book.phase, book.rows, holdings.phase, holdings.rows]).toEqual([
      'done',
      12_000,
      'running',
      30_000,
    ]);
    b.end(40_000);
    await second;
    // Once done, a late event of the export changes nothing.
    progress.emit({ type: 'export-progress', exportId: b.id(), rows: 1, done: false });
    expect([holdings.phase, holdings.rows, holdings.result?.path]).toEqual([
      'done',
      40_000,
      `/x/${b.id()}.csv`,
    ]);
  });
});
