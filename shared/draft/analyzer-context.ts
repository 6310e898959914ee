import type { Restriction } from '../restrictions/rules';
import { cashOf, doubtOf, leftOutRows } from './diff';
import { isZeroString } from './exact';
import { indexHoldings, indexTarget, type TargetEntry } from './rules';
import type { AnalyzerOptions, DiffRow, HeldPosition, TargetDoubt, TargetPosition } from './types';

/**
 * What the draft editor's analyzer (analyzer.ts) measures a draft against: the current target,
 * the holdings, the order in which left-out symbols' rows stand, the doubt on the target, the
 * restrictions. Worked out once per target and holdings (`setContext`), while the analyzer's
 * state follows every keystroke.
 */
export interface DraftContext {
  targetMap: Map<string, TargetEntry>;
  held: Map<string, string>;
  /** Where a left-out symbol's row goes: target order, then holdings order. */
  order: Map<string, number>;
  oldCash: string;
  /** A current target is known here; without one no action is predicted. */
  known: boolean;
  /** Why the target may not be the service's: no action is predicted then. */
  doubt: TargetDoubt | null;
  liquidateOnly: boolean;
  restrictions: ReadonlyMap<string, readonly Restriction[]>;
  /** Restricted symbols held (a quantity above 0). */
  heldRestricted: Set<string>;
}

export function makeDraftContext(
  target: readonly TargetPosition[] | null,
  holdings: readonly HeldPosition[],
  options: AnalyzerOptions,
): DraftContext {
  const targetMap = indexTarget(target ?? []);
  const held = indexHoldings(holdings);
  const order = new Map<string, number>();
  for (const symbol of targetMap.keys()) order.set(symbol, order.size);
  for (const [symbol, quantity] of held)
    if (!order.has(symbol) && !isZeroString(quantity)) order.set(symbol, order.size);
  return {
    targetMap,
    held,
    order,
    oldCash: cashOf(targetMap),
    known: target !== null,
    doubt: doubtOf(target !== null, options.stale === true),
    liquidateOnly: options.liquidateOnly === true,
    restrictions: options.restrictions ?? NO_RULES,
    heldRestricted: new Set(
      [...(options.restrictions?.keys() ?? [])].filter(
        (symbol) => held.has(symbol) && !isZeroString(held.get(symbol)!),
      ),
    ),
  };
}

const NO_RULES: ReadonlyMap<string, readonly Restriction[]> = new Map();

/** The row of a symbol the draft leaves out, as `leftOutRows` gives it, at its place. */
export function leftOutRowOf(context: DraftContext, symbol: string): DiffRow {
  return leftOutRows(
    context.targetMap.has(symbol) ? new Map([[symbol, context.targetMap.get(symbol)!]]) : new Map(),
    new Map([[symbol, context.held.get(symbol) ?? '0']]),
    () => false,
    context.doubt,
  )[0]!;
}
