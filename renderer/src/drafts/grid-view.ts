import { NumberColumn, TextColumn } from '../../../shared/figures';
import type { DiffRow, ValidatedRow } from '../../../shared/draft/types';
import type { Restriction, Violation } from '../../../shared/restrictions/rules';
import type { DraftRow } from '../../../shared/views';
import type { DraftModel } from './draft-model';

/** One grid row: what the row component renders. A new object only when the row changed. */
export interface RowView {
  key: number;
  index: number;
  row: DraftRow;
  validated: ValidatedRow;
  diff: DiffRow;
  /** The service said it does not know this symbol (last execute). */
  unknown: boolean;
  /** The row against the restrictions in force: a certain or possible violation, or none. */
  restriction: Violation | null;
}

export function rowView(
  model: DraftModel,
  index: number,
  unknown: ReadonlySet<string>,
  violations: ReadonlyMap<string, Violation>,
): RowView {
  const validated = model.analysis.validated[index]!;
  return {
    key: model.keys[index]!,
    index,
    row: model.rows[index]!,
    validated,
    diff: model.analysis.diffRows[index]!,
    unknown: validated.symbol !== '' && unknown.has(validated.symbol),
    restriction: violations.get(validated.symbol) ?? null,
  };
}

/** The rules in force grouped by symbol, as the analyzer checks them. */
export function rulesBySymbol(rules: readonly Restriction[]): Map<string, Restriction[]> {
  const bySymbol = new Map<string, Restriction[]>();
  for (const rule of rules) bySymbol.set(rule.symbol, [...(bySymbol.get(rule.symbol) ?? []), rule]);
  return bySymbol;
}

/** The analyzer's violations by symbol, for the rows' classes. */
export function violationsBySymbol(found: readonly Violation[]): ReadonlyMap<string, Violation> {
  return new Map(found.map((v) => [v.symbol, v]));
}

/** "+1.5", "-2", "0": the sign always shown, the digits exactly as computed. */
export function signed(change: string | null): string {
  if (change === null) return '—';
  if (change === '0' || change.startsWith('-')) return change;
  return `+${change}`;
}

/** The message shown for a row the service refused by symbol. */
export function unknownMessage(index: number, symbol: string): string {
  return `Row ${index + 1} (${symbol}): the service does not know the symbol ${symbol}; correct it or remove the row`;
}

/** Every message of a row, for its tooltip. */
export function rowMessages(view: RowView): string[] {
  const messages = view.validated.errors.map((e) => e.message);
  if (view.unknown) messages.push(unknownMessage(view.index, view.validated.symbol));
  return messages;
}

/** A row's problems as one tooltip, or undefined when it has none. */
export function rowTooltip(view: RowView): string | undefined {
  const messages = rowMessages(view);
  return messages.length > 0 ? messages.join('\n') : undefined;
}

/** Invested width of the bar in percent, clamped for drawing (the numbers show the truth). */
export function investedPercent(total: string): number {
  const n = Number(total);
  if (!Number.isFinite(n)) return 0;
  return Math.min(100, Math.max(0, n));
}

/**
 * The longest symbol, weights and quantities of all the rows (those out of view too) and the
 * places of the numeric columns: one pass over the rows' texts, nothing formatted. The grid sizes
 * its columns to these.
 */
export function gridShape(views: readonly RowView[], leftOut: readonly DiffRow[]) {
  const symbol = new TextColumn();
  const weight = new TextColumn();
  const [target, change, held] = [new NumberColumn(), new NumberColumn(), new NumberColumn()];
  const add = (diff: DiffRow) => {
    if (diff.oldKnown) {
      target.add(diff.oldWeight);
      change.add(signed(diff.change));
    }
    held.add(diff.heldQuantity);
  };
  for (const view of views) {
    symbol.add(view.row.symbol);
    weight.add(view.row.weight);
    add(view.diff);
  }
  for (const row of leftOut) {
    symbol.add(row.symbol);
    add(row);
  }
  return {
    symbol: symbol.longest,
    weight: weight.longest,
    target: target.widest(false),
    change: change.widest(false),
    held: held.widest(false),
    places: { target: target.places, change: change.places, held: held.places },
  };
}
