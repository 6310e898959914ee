import { parseDecimal, type Decimal } from '../decimal';
import { Exact, HUNDRED, ZERO, plain } from './exact';
import {
  describeBadWeight,
  draftErrors,
  indexTarget,
  inspectRow,
  liquidateOnlyError,
  rowErrors,
  type RowCore,
} from './rules';
import type { DraftRowInput, DraftValidation, TargetPosition, ValidatedRow } from './types';

export interface ValidateOptions {
  /**
   * The current target (latest executed version's positions). Needed to allow an all-zero
   * draft (it removes everything) and to count the symbols the body will add with weight 0.
   */
  previousTarget?: readonly TargetPosition[];
  /** The strategy is liquidate-only: a weight above the target's is an error on its row. */
  liquidateOnly?: boolean;
  /** With liquidateOnly: no target is known here (previousTarget is then empty). */
  targetUnknown?: boolean;
}

/**
 * Validates a whole draft in one pass: linear in its rows (duplicates found with a map).
 * For revalidation on every keystroke, use createDraftAnalyzer (analyzer.ts), which gives
 * the same answer and only redoes the rows that changed.
 */
export function validateDraft(
  rows: readonly DraftRowInput[],
  options: ValidateOptions = {},
): DraftValidation {
  const cores: RowCore[] = new Array(rows.length);
  const bySymbol = new Map<string, number[]>();
  let total: Decimal = new Exact(0);
  let zeroRows = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const core = inspectRow(row.symbol, row.weight);
    cores[i] = core;
    if (core.decimal) total = total.plus(core.decimal);
    if (core.zero) zeroRows++;
    if (core.symbol !== '') {
      const list = bySymbol.get(core.symbol);
      if (list) list.push(i);
      else bySymbol.set(core.symbol, [i]);
    }
  }

  const target = indexTarget(options.previousTarget ?? []);
  const validated: ValidatedRow[] = new Array(rows.length);
  let rowsValid = true;
  for (let i = 0; i < cores.length; i++) {
    const core = cores[i]!;
    const same = core.symbol === '' ? NONE : (bySymbol.get(core.symbol) ?? NONE);
    let errors = rowErrors(i, core, same);
    if (options.liquidateOnly && core.decimal && !core.weightIssue) {
      const old = options.targetUnknown ? null : (target.get(core.symbol)?.decimal ?? ZERO);
      const error = liquidateOnlyError(i, core.symbol, core.decimal, old);
      if (error) errors = [...errors, error];
    }
    if (errors.length > 0) rowsValid = false;
    validated[i] = { index: i, symbol: core.symbol, weight: core.weight, errors };
  }

  let leftOut = 0;
  for (const symbol of target.keys()) if (!bySymbol.has(symbol)) leftOut++;
  const errors = draftErrors({
    rowCount: rows.length,
    total,
    allZero: zeroRows === rows.length,
    hasTarget: target.size > 0 || options.targetUnknown === true,
    leftOut,
  });
  return {
    rows: validated,
    errors,
    total: plain(total),
    cash: plain(HUNDRED.minus(total)),
    valid: rowsValid && errors.length === 0,
  };
}

const NONE: readonly number[] = [];

export type ImportedWeight = { ok: true; value: string } | { ok: false; error: string };

/**
 * A weight typed or pasted by a person: surrounding spaces and one trailing % are allowed
 * ("12.5 %"); otherwise as strict as a draft weight (no exponent, no comma, no plus sign).
 * `value` is the bare decimal string, digits unchanged.
 */
export function parseImportedWeight(input: string): ImportedWeight {
  let text = input.trim();
  if (text.endsWith('%')) text = text.slice(0, -1).trimEnd();
  if (text === '') return { ok: false, error: 'is empty' };
  const parsed = parseDecimal(text);
  return parsed.ok
    ? { ok: true, value: parsed.value }
    : {
        ok: false,
        error: text.endsWith('%') ? 'has more than one % sign' : describeBadWeight(text),
      };
}
