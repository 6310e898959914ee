/**
 * The draft editor's keystroke (docs/testing.md, Speed): one weight edited in a 1,000-row draft,
 * revalidated and rediffed through the editor's own model (renderer/src/drafts/draft-model.ts:
 * the row replaced, the undo step merged, the analyzer told which row changed, the error set
 * kept), divided by the same in a 100-row draft, measured in this run (warm-up, median of 9).
 */
import type { HeldPosition, TargetPosition } from '../../shared/draft/types';
import type { DraftRow } from '../../shared/views';
import { DraftModel } from '../../renderer/src/drafts/draft-model';
import { median } from '../support/median';

/** What a manager types into a weight cell, one key at a time (some are errors meanwhile). */
const WEIGHT_KEYS = ['', '0', '0.', '0.0', '0.04'];

function fixture(size: number) {
  const symbols = Array.from({ length: size }, (_, i) => `S${String(i).padStart(4, '0')}`);
  // The sum stays at or below 50 whatever is typed (each weight at most 0.05 or 0.5).
  const weight = size === 100 ? '0.5' : '0.05';
  const rows: DraftRow[] = symbols.map((symbol) => ({ symbol, weight, locked: false }));
  const target: TargetPosition[] = symbols.map((symbol) => ({ symbol, weight: '0.04' }));
  const holdings: HeldPosition[] = symbols.map((symbol) => ({ symbol, quantity: '10' }));
  return { rows, target, holdings };
}

/** CPU milliseconds per keystroke. */
function run(size: number, count: number): number {
  const { rows, target, holdings } = fixture(size);
  const model = new DraftModel(rows, target, holdings);
  let sink = 0;
  // Untimed keystrokes first: opening the draft allocates every row, and the garbage collector
  // moving those to the old generation is the cost of opening, not of a keystroke.
  for (let t = 0; t < 2000; t++) model.setCell((t * 31) % size, 'weight', '0.01', -1 - t);
  // CPU time of this process, not wall time: other processes on a busy machine do not count.
  const began = process.cpuUsage();
  for (let t = 0; t < count; t++) {
    const row = (t * 7919) % size;
    // One focus of a cell per five keys: the undo step of a cell edit merges its keystrokes.
    // The key differs from the one this row got last time, so every keystroke changes a weight.
    const key = WEIGHT_KEYS[(t + Math.floor(t / size)) % 5]!;
    const change = model.setCell(row, 'weight', key, Math.floor(t / 5));
    sink += change.rows.length + model.analysis.validated.length + model.errorRows.size;
  }
  const used = process.cpuUsage(began);
  if (sink === 0) throw new Error('nothing analyzed');
  return (used.user + used.system) / 1000 / count;
}

export default async function draftEditBench(): Promise<Record<string, number>> {
  const count = 20_000;
  for (let i = 0; i < 3; i++) {
    run(100, count);
    run(1000, count);
  }
  const small: number[] = [];
  const large: number[] = [];
  for (let i = 0; i < 9; i++) {
    small.push(run(100, count));
    large.push(run(1000, count));
  }
  return { draft_edit_1000_vs_100_ratio: Number((median(large) / median(small)).toFixed(2)) };
}
