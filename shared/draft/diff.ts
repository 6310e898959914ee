import { DECIMAL_PATTERN, type Decimal } from '../decimal';
import type { PositionAction } from '../domain/resources';
import { Exact, HUNDRED, ZERO, isZeroString, plain } from './exact';
import { indexHoldings, indexTarget, sumTarget, type TargetEntry } from './rules';
import type {
  DiffRow,
  DraftDiff,
  DraftValidation,
  HeldPosition,
  PredictedEffect,
  RowAction,
  TargetDoubt,
  TargetPosition,
  ValidatedRow,
} from './types';

/**
 * The action the service will give a position, from the previous target
 * weight and the new one, compared numerically ("5" equals "5.00").
 */
export function predictAction(oldWeight: Decimal, newWeight: Decimal): PositionAction {
  if (oldWeight.eq(newWeight)) return 'IGNORE';
  if (oldWeight.isZero()) return 'ADD';
  if (newWeight.isZero()) return 'REMOVE';
  return 'CHANGE';
}

/** What the app can say of one position: its action (or 'uncertain'), the sale, the effect. */
export interface RowPrediction {
  action: RowAction;
  /** Held and sent at weight 0: the whole quantity is sold, whatever the target. */
  sellsAll: boolean;
  effect: PredictedEffect;
}

/**
 * The one rule for a position's prediction, used by the grid and the confirmation alike.
 * `old`: the known target's weight (0 when not in it); `doubt`: why the known target may not
 * be the service's, null when it is taken as the service's. In doubt no action is predicted,
 * since the service derives it from its own target; a sale of a held symbol at 0 stays a fact.
 */
export function predictRow(
  old: Decimal,
  next: Decimal,
  held: boolean,
  doubt: TargetDoubt | null,
): RowPrediction {
  const sellsAll = held && next.isZero();
  if (doubt !== null)
    return { action: 'uncertain', sellsAll, effect: sellsAll ? 'sell-held' : 'uncertain' };
  const action = predictAction(old, next);
  return { action, sellsAll, effect: sellsAll ? 'sell-held' : EFFECT[action] };
}

const EFFECT: Record<PositionAction, PredictedEffect> = {
  ADD: 'add',
  CHANGE: 'change',
  REMOVE: 'remove',
  IGNORE: 'unchanged',
};

/** The doubt the grid's rows carry: no target known here, or holdings that do not fit it. */
export function doubtOf(known: boolean, stale: boolean): TargetDoubt | null {
  return !known ? 'unknown' : stale ? 'stale' : null;
}

/**
 * The diff row of one draft row. `decimal`: its weight as a decimal, null if not one.
 * `doubt`: why the target may not be the service's (else null): no action is predicted then.
 */
export function draftDiffRow(
  row: ValidatedRow,
  decimal: Decimal | null,
  target: ReadonlyMap<string, TargetEntry>,
  held: ReadonlyMap<string, string>,
  doubt: TargetDoubt | null = null,
): DiffRow {
  const known = doubt !== 'unknown';
  const previous = target.get(row.symbol);
  const old = previous ? previous.decimal : ZERO;
  const quantity = held.get(row.symbol) ?? '0';
  const isHeld = !isZeroString(quantity);
  const predicted =
    decimal && row.errors.length === 0 ? predictRow(old, decimal, isHeld, doubt) : null;
  return {
    symbol: row.symbol,
    draftIndex: row.index,
    oldWeight: previous ? previous.weight : '0',
    oldKnown: known,
    newWeight: row.weight,
    change: decimal ? plain(decimal.minus(old)) : null,
    action: predicted?.action ?? null,
    doubt: predicted ? doubt : null,
    effect: predicted?.effect ?? null,
    heldQuantity: quantity,
    heldNotInDraft: false,
    sellsAll: isHeld && decimal !== null && decimal.isZero(),
    heldNotInTarget: known && isHeld && !previous,
    inTargetNotInDraft: false,
  };
}

/**
 * Rows for symbols the draft does not name: target symbols (sent with weight 0, REMOVE),
 * then symbols held but in neither (sent with weight 0 too: the rebalance sells them whole).
 */
export function leftOutRows(
  target: ReadonlyMap<string, TargetEntry>,
  held: ReadonlyMap<string, string>,
  inDraft: (symbol: string) => boolean,
  doubt: TargetDoubt | null = null,
): DiffRow[] {
  const known = doubt !== 'unknown';
  const rows: DiffRow[] = [];
  for (const [symbol, entry] of target) {
    if (inDraft(symbol)) continue;
    const quantity = held.get(symbol) ?? '0';
    const predicted = predictRow(entry.decimal, ZERO, !isZeroString(quantity), doubt);
    rows.push({
      symbol,
      draftIndex: null,
      oldWeight: entry.weight,
      oldKnown: true,
      newWeight: '0',
      change: plain(entry.decimal.neg()),
      action: predicted.action,
      doubt,
      effect: predicted.effect,
      heldQuantity: quantity,
      heldNotInDraft: !isZeroString(quantity),
      sellsAll: predicted.sellsAll,
      heldNotInTarget: false,
      inTargetNotInDraft: true,
    });
  }
  for (const [symbol, quantity] of held) {
    if (isZeroString(quantity) || target.has(symbol) || inDraft(symbol)) continue;
    const predicted = predictRow(ZERO, ZERO, true, doubt);
    rows.push({
      symbol,
      draftIndex: null,
      oldWeight: '0',
      oldKnown: known,
      newWeight: '0',
      change: '0',
      action: predicted.action,
      doubt,
      effect: predicted.effect,
      heldQuantity: quantity,
      heldNotInDraft: true,
      sellsAll: true,
      heldNotInTarget: known,
      inTargetNotInDraft: false,
    });
  }
  return rows;
}

export function cashOf(target: ReadonlyMap<string, TargetEntry>): string {
  return plain(HUNDRED.minus(sumTarget(target)));
}

/**
 * Compares a validated draft with the current target and the holdings, per symbol.
 * One pass over each list; symbols are matched exactly (draft symbols are upper-cased).
 * `target` null: no current target is known here; `stale`: the holdings do not fit it. Either
 * way no action is predicted.
 */
export function diffDraft(
  validation: DraftValidation,
  target: readonly TargetPosition[] | null,
  holdings: readonly HeldPosition[],
  options: { stale?: boolean } = {},
): DraftDiff {
  const doubt = doubtOf(target !== null, options.stale === true);
  const targetMap = indexTarget(target ?? []);
  const held = indexHoldings(holdings);
  const symbols = new Set<string>();
  const rows: DiffRow[] = [];
  for (const row of validation.rows) {
    const decimal = DECIMAL_PATTERN.test(row.weight) ? new Exact(row.weight) : null;
    rows.push(draftDiffRow(row, decimal, targetMap, held, doubt));
    if (row.symbol !== '') symbols.add(row.symbol);
  }
  for (const row of leftOutRows(targetMap, held, (s) => symbols.has(s), doubt)) rows.push(row);
  return { rows, oldCash: cashOf(targetMap), newCash: validation.cash, doubt };
}
