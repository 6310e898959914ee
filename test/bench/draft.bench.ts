/**
 * Draft editor keystroke cost: revalidating and rediffing a 1,000-row draft divided by the
 * same for a 100-row draft, measured in one run (warm-up, then the median of several runs).
 * Each keystroke is what the editor does: a new rows array with one row replaced, analyzed
 * against the current target and the holdings. Most keystrokes type a weight; some edit a
 * symbol of the target (backspace, then retype), which changes the left-out rows.
 */
import { createDraftAnalyzer } from '../../shared/draft/analyzer';
import type { DraftRowInput, HeldPosition, TargetPosition } from '../../shared/draft/types';

const WEIGHT_KEYS = ['', '0', '0.', '0.0', '0.04'];

function fixture(size: number) {
  const symbols = Array.from({ length: size }, (_, i) => `S${String(i).padStart(4, '0')}`);
  // Sum stays at 50 or below whatever the keystrokes type (each weight at most 0.05).
  const weight = size === 100 ? '0.5' : '0.05';
  const rows: DraftRowInput[] = symbols.map((symbol) => ({ symbol, weight }));
  const target: TargetPosition[] = symbols.map((symbol) => ({ symbol, weight: '0.04' }));
  const holdings: HeldPosition[] = symbols.map((symbol) => ({ symbol, quantity: '10' }));
  return { rows, target, holdings };
}

/** The rows after each keystroke, built beforehand so only the analysis is timed. */
function keystrokes(start: DraftRowInput[], count: number): DraftRowInput[][] {
  const size = start.length;
  const states: DraftRowInput[][] = [];
  let rows = start;
  for (let t = 0; t < count; t++) {
    const k = (t * 7919) % size;
    const next = rows.slice();
    if (t % 10 === 8) next[k] = { ...rows[k]!, symbol: rows[k]!.symbol.slice(0, -1) };
    else if (t % 10 === 9) {
      const j = ((t - 1) * 7919) % size;
      next[j] = start[j]!;
    } else next[k] = { ...rows[k]!, weight: WEIGHT_KEYS[t % WEIGHT_KEYS.length]! };
    states.push(next);
    rows = next;
  }
  return states;
}

/** CPU milliseconds per keystroke. */
function run(size: number, count: number): number {
  const { rows, target, holdings } = fixture(size);
  const states = keystrokes(rows, count);
  const analyzer = createDraftAnalyzer(target, holdings);
  analyzer.analyze(rows);
  let sink = 0;
  // CPU time of this process, not wall time: other processes on a busy machine do not count.
  const began = process.cpuUsage();
  for (const state of states) {
    const { validation, diff } = analyzer.analyze(state);
    sink += validation.rows.length + diff.rows.length;
  }
  const used = process.cpuUsage(began);
  const elapsed = (used.user + used.system) / 1000;
  if (sink === 0) throw new Error('nothing analyzed');
  return elapsed / count;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export default async function draftBench(): Promise<Record<string, number>> {
  const count = 2000;
  // Warm-up: let the JIT settle before measuring.
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
  return {
    draft_validate_1000_vs_100_ratio: Number((median(large) / median(small)).toFixed(2)),
  };
}
