import { DECIMAL_PATTERN, type Decimal } from '../decimal';
import type { PositionAction } from '../domain/resources';
import { Exact, HUNDRED, ZERO, isZeroString, plain } from './exact';
import { indexHoldings, indexTarget, sumTarget, type TargetEntry } from './rules';
import type {
  DiffRow,
  DraftDiff,
  DraftValidation,
  HeldPosition,
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

/**
 * The diff row of one draft row. `decimal`: its weight as a decimal, null if not one.
 * `known`: a current target is known here (else no action is predicted).
 */
export function draftDiffRow(
  row: ValidatedRow,
  decimal: Decimal | null,
  target: ReadonlyMap<string, TargetEntry>,
  held: ReadonlyMap<string, string>,
  known = true,
): DiffRow {
  const previous = target.get(row.symbol);
  const old = previous ? previous.decimal : ZERO;
  const quantity = held.get(row.symbol) ?? '0';
  const isHeld = !isZeroString(quantity);
  return {
    symbol: row.symbol,
    draftIndex: row.index,
    oldWeight: previous ? previous.weight : '0',
    oldKnown: known,
    newWeight: row.weight,
    change: decimal ? plain(decimal.minus(old)) : null,
    action: known && decimal && row.errors.length === 0 ? predictAction(old, decimal) : null,
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
  known = true,
): DiffRow[] {
  const rows: DiffRow[] = [];
  for (const [symbol, entry] of target) {
    if (inDraft(symbol)) continue;
    const quantity = held.get(symbol) ?? '0';
    rows.push({
      symbol,
      draftIndex: null,
      oldWeight: entry.weight,
      oldKnown: true,
      newWeight: '0',
      change: plain(entry.decimal.neg()),
      action: predictAction(entry.decimal, ZERO),
      heldQuantity: quantity,
      heldNotInDraft: !isZeroString(quantity),
      sellsAll: !isZeroString(quantity),
      heldNotInTarget: false,
      inTargetNotInDraft: true,
    });
  }
  for (const [symbol, quantity] of held) {
    if (isZeroString(quantity) || target.has(symbol) || inDraft(symbol)) continue;
    rows.push({
      symbol,
      draftIndex: null,
      oldWeight: '0',
      oldKnown: known,
      newWeight: '0',
      change: '0',
      action: known ? 'IGNORE' : null,
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
 * `target` null: no current target is known here; no action is predicted.
 */
export function diffDraft(
  validation: DraftValidation,
  target: readonly TargetPosition[] | null,
  holdings: readonly HeldPosition[],
): DraftDiff {
  const known = target !== null;
  const targetMap = indexTarget(target ?? []);
  const held = indexHoldings(holdings);
  const symbols = new Set<string>();
  const rows: DiffRow[] = [];
  for (const row of validation.rows) {
    const decimal = DECIMAL_PATTERN.test(row.weight) ? new Exact(row.weight) : null;
    rows.push(draftDiffRow(row, decimal, targetMap, held, known));
    if (row.symbol !== '') symbols.add(row.symbol);
  }
  for (const row of leftOutRows(targetMap, held, (s) => symbols.has(s), known)) rows.push(row);
  return { rows, oldCash: cashOf(targetMap), newCash: validation.cash };
}
