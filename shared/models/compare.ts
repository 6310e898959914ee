import { Exact } from '../draft/exact';
import { canonicalRows, type ModelRowInput } from './canonical';

/**
 * Two sets of model weights side by side, exact: symbols the second adds, removes or changes,
 * each with both weights ('0' where a side does not hold it). Weights are compared as numbers
 * ("5" equals "5.00"); a row at 0 is the same as no row. Sorted by symbol.
 */

export interface WeightChange {
  symbol: string;
  /** The first side's weight, canonical; '0' when it does not hold the symbol. */
  from: string;
  /** The second side's weight, canonical; '0' when it does not hold the symbol. */
  to: string;
}

export interface WeightComparison {
  added: WeightChange[];
  removed: WeightChange[];
  changed: WeightChange[];
  /** Symbols both hold at the same weight. */
  unchanged: number;
}

export function compareWeights(
  from: readonly ModelRowInput[],
  to: readonly ModelRowInput[],
): WeightComparison {
  const before = new Map(canonicalRows(from).map((r) => [r.symbol, r.weight]));
  const after = new Map(canonicalRows(to).map((r) => [r.symbol, r.weight]));
  const symbols = [...new Set([...before.keys(), ...after.keys()])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const result: WeightComparison = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const symbol of symbols) {
    const a = before.get(symbol);
    const b = after.get(symbol);
    if (a === undefined) result.added.push({ symbol, from: '0', to: b! });
    else if (b === undefined) result.removed.push({ symbol, from: a, to: '0' });
    else if (!new Exact(a).eq(new Exact(b))) result.changed.push({ symbol, from: a, to: b });
    else result.unchanged++;
  }
  return result;
}

/** Every symbol whose weight differs between the two sides, by symbol. */
export function differingSymbols(comparison: WeightComparison): WeightChange[] {
  return [...comparison.added, ...comparison.removed, ...comparison.changed].sort((a, b) =>
    a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0,
  );
}
