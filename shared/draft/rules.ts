import { DECIMAL_PATTERN, type Decimal } from '../decimal';
import { Exact, NINETY_EIGHT, ZERO, count, isZeroString, plain, toExact } from './exact';
import type { DraftError, HeldPosition, RowError, RowErrorCode, TargetPosition } from './types';
import { MAX_ROWS } from './types';
import { describeBadWeight } from './weight-text';

export { describeBadWeight };

/**
 * The rules of a draft, row by row and for the whole draft. Both the one-shot validator
 * (validate.ts) and the incremental analyzer (analyzer.ts) build their answers from these,
 * so the two always agree.
 */

const SYMBOL_PATTERN = /^[A-Z0-9./-]{1,20}$/;

/** What one row says on its own, before duplicates are known. */
export interface RowCore {
  symbol: string;
  weight: string;
  /** The weight when it is a decimal string (in range or not), else null. */
  decimal: Decimal | null;
  /** The weight is a decimal string equal to 0. */
  zero: boolean;
  symbolIssue: 'symbol-empty' | 'symbol-invalid' | null;
  weightIssue: { code: RowErrorCode; detail: string } | null;
}

export function normalizeSymbol(symbol: string): string {
  return symbol.trim().toUpperCase();
}

export function inspectRow(rawSymbol: string, rawWeight: string): RowCore {
  const symbol = normalizeSymbol(rawSymbol);
  const weight = rawWeight.trim();
  const symbolIssue =
    symbol === '' ? 'symbol-empty' : SYMBOL_PATTERN.test(symbol) ? null : 'symbol-invalid';
  if (weight === '')
    return { symbol, weight, decimal: null, zero: false, symbolIssue, weightIssue: EMPTY_WEIGHT };
  // One regex test and one allocation on the hot path; describeBadWeight only words the failure.
  if (!DECIMAL_PATTERN.test(weight))
    return {
      symbol,
      weight,
      decimal: null,
      zero: false,
      symbolIssue,
      weightIssue: { code: 'weight-not-decimal', detail: describeBadWeight(weight) },
    };
  const decimal = new Exact(weight);
  let weightIssue: RowCore['weightIssue'] = null;
  if (decimal.gt(NINETY_EIGHT))
    weightIssue = {
      code: 'weight-out-of-range',
      detail: 'is above 98, the most one position can hold',
    };
  else if (decimal.lt(ZERO))
    weightIssue = { code: 'weight-out-of-range', detail: 'is below 0; use 0 to remove a position' };
  return { symbol, weight, decimal, zero: decimal.isZero(), symbolIssue, weightIssue };
}

const EMPTY_WEIGHT = {
  code: 'weight-empty',
  detail: 'the weight is empty; enter a percentage from 0 to 98 (0 removes the position)',
} as const;

export function rowHasErrors(core: RowCore, duplicate: boolean): boolean {
  return duplicate || core.symbolIssue !== null || core.weightIssue !== null;
}

/** One problem of a row on its own, in words without the row's label. */
export interface RowIssue {
  code: RowErrorCode;
  field: 'symbol' | 'weight';
  text: string;
}

/** What is wrong with a row by itself (not duplicates): a pasted line's reason uses the same words. */
export function rowIssues(core: RowCore): RowIssue[] {
  const issues: RowIssue[] = [];
  if (core.symbolIssue === 'symbol-empty')
    issues.push({ code: 'symbol-empty', field: 'symbol', text: 'the symbol is empty' });
  else if (core.symbolIssue === 'symbol-invalid')
    issues.push({
      code: 'symbol-invalid',
      field: 'symbol',
      text: /\s/.test(core.symbol)
        ? `"${shorten(core.symbol)}" has a space: a symbol is 1 to 20 letters, digits, dots, ` +
          'dashes or slashes (like BRK.B)'
        : `"${shorten(core.symbol)}" is not a valid symbol; use 1 to 20 letters, digits, dots, ` +
          'dashes or slashes (like BRK.B)',
    });
  const issue = core.weightIssue;
  if (issue)
    issues.push({
      code: issue.code,
      field: 'weight',
      text:
        issue.code === 'weight-empty'
          ? issue.detail
          : issue.code === 'weight-not-decimal'
            ? `weight "${shorten(core.weight)}" ${issue.detail}`
            : `weight ${shorten(core.weight)} ${issue.detail}`,
    });
  return issues;
}

/**
 * The row's errors with messages naming the row and its symbol.
 * `sameSymbol`: zero-based indexes of every row with this symbol, this one included.
 */
export function rowErrors(index: number, core: RowCore, sameSymbol: readonly number[]): RowError[] {
  const duplicate = sameSymbol.length > 1;
  if (!rowHasErrors(core, duplicate)) return NO_ERRORS;
  const label =
    core.symbol === '' ? `Row ${index + 1}` : `Row ${index + 1} (${shorten(core.symbol)})`;
  const issues = rowIssues(core);
  const errors: RowError[] = [];
  const symbolIssues = issues.filter((i) => i.field === 'symbol');
  for (const i of symbolIssues)
    errors.push({ code: i.code, field: i.field, message: `${label}: ${i.text}` });
  if (duplicate)
    errors.push({
      code: 'symbol-duplicate',
      field: 'symbol',
      message: `${label}: ${shorten(core.symbol)} is also on ${otherRowList(sameSymbol, index)}; keep one row per symbol`,
    });
  for (const i of issues)
    if (i.field === 'weight')
      errors.push({ code: i.code, field: i.field, message: `${label}: ${i.text}` });
  return errors;
}

/** Shared empty list: rows without errors allocate nothing. Never mutated. */
const NO_ERRORS: RowError[] = [];

/** "row 2", "rows 2 and 5", "rows 2, 5, 9 and 12 more": at most three named, never quadratic. */
function otherRowList(rows: readonly number[], self: number): string {
  const shown: string[] = [];
  for (let k = 0; k < rows.length && shown.length < 3; k++)
    if (rows[k] !== self) shown.push(String(rows[k]! + 1));
  const rest = rows.length - 1 - shown.length;
  if (shown.length === 1) return `row ${shown[0]}`;
  if (rest > 0) return `rows ${shown.join(', ')} and ${count(rest)} more`;
  return `rows ${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** Keeps a pasted essay from flooding a message. */
function shorten(text: string): string {
  return text.length > 30 ? `${text.slice(0, 27)}...` : text;
}

export interface DraftFacts {
  rowCount: number;
  total: Decimal;
  /** Every row's weight is a decimal string equal to 0. */
  allZero: boolean;
  /** The current target has at least one non-zero position. */
  hasTarget: boolean;
  /** Current target symbols that no draft row names (each will be sent with weight 0). */
  leftOut: number;
}

export function draftErrors(facts: DraftFacts): DraftError[] {
  const errors: DraftError[] = [];
  const { rowCount, total, leftOut } = facts;
  if (rowCount === 0)
    errors.push({
      code: 'no-positions',
      message: 'The draft has no rows; add at least one position.',
    });
  if (rowCount > MAX_ROWS) {
    const extra = rowCount - MAX_ROWS;
    errors.push({
      code: 'too-many-rows',
      message:
        `The draft has ${count(rowCount)} rows; a version holds at most ${count(MAX_ROWS)} ` +
        `positions. Remove ${count(extra)} ${extra === 1 ? 'row' : 'rows'}.`,
    });
  } else if (rowCount + leftOut > MAX_ROWS) {
    errors.push({
      code: 'too-many-positions',
      message:
        `Executing this draft would send ${count(rowCount + leftOut)} positions: its ` +
        `${count(rowCount)} rows plus ${count(leftOut)} symbols of the current target it leaves ` +
        `out (sent with weight 0 to remove them). The service accepts at most ${count(MAX_ROWS)}; ` +
        'remove rows that are not in the current target.',
    });
  }
  if (total.gt(NINETY_EIGHT))
    errors.push({
      code: 'total-over-98',
      message:
        `Weights add up to ${plain(total)}, above 98: cash must stay at least 2. ` +
        `Reduce the weights by ${plain(total.minus(NINETY_EIGHT))}.`,
    });
  if (rowCount > 0 && facts.allZero && !facts.hasTarget)
    errors.push({
      code: 'nothing-to-execute',
      message:
        'Every weight is 0 and the strategy has no current target, so there is nothing to ' +
        'execute. Give at least one position a weight above 0.',
    });
  return errors;
}

export interface TargetEntry {
  weight: string;
  decimal: Decimal;
}

/**
 * The current target by symbol, in the target's order. Positions at weight 0 (removed by
 * that version) are not part of the target: they are neither shown nor re-sent.
 * Symbols are matched exactly, as the service does.
 */
export function indexTarget(target: readonly TargetPosition[]): Map<string, TargetEntry> {
  const map = new Map<string, TargetEntry>();
  for (const position of target) {
    if (map.has(position.symbol) || isZeroString(position.weight)) continue;
    map.set(position.symbol, { weight: position.weight, decimal: toExact(position.weight) });
  }
  return map;
}

/** Held quantity by symbol (first entry wins). */
export function indexHoldings(holdings: readonly HeldPosition[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const h of holdings) if (!map.has(h.symbol)) map.set(h.symbol, h.quantity);
  return map;
}

export function sumTarget(target: ReadonlyMap<string, TargetEntry>): Decimal {
  let sum: Decimal = new Exact(0);
  for (const entry of target.values()) sum = sum.plus(entry.decimal);
  return sum;
}

/**
 * A liquidate-only strategy refuses any weight above the previous target's: the error on the
 * row, before anything is sent. `old`: the known target's weight, null when none is known.
 */
export function liquidateOnlyError(
  index: number,
  symbol: string,
  weight: Decimal,
  old: Decimal | null,
): RowError | null {
  const previous = old ?? ZERO;
  if (!weight.gt(previous)) return null;
  const label = symbol === '' ? `Row ${index + 1}` : `Row ${index + 1} (${shorten(symbol)})`;
  return {
    code: 'liquidate-only-increase',
    field: 'weight',
    message:
      `${label}: the strategy is liquidate-only, so no weight may rise; ` +
      (old === null
        ? 'no current target is known here to compare with (import the latest version by id)'
        : previous.isZero()
          ? `${shorten(symbol)} is not in the current target`
          : `${shorten(symbol)} would rise from ${plain(previous)} to ${plain(weight)}`),
  };
}
