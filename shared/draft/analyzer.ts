import type { Decimal } from '../decimal';
import { classifyTarget, type Violation } from '../restrictions/rules';
import { makeDraftContext, leftOutRowOf, type DraftContext } from './analyzer-context';
import { draftDiffRow, leftOutRows } from './diff';
import { Exact, HUNDRED, ZERO, plain } from './exact';
import { draftErrors, inspectRow, liquidateOnlyError, rowErrors, type RowCore } from './rules';
import type {
  AnalyzerOptions,
  DiffRow,
  DraftDiff,
  DraftRowInput,
  DraftUpdate,
  DraftValidation,
  HeldPosition,
  TargetPosition,
  ValidatedRow,
} from './types';

export type { AnalyzerOptions, DraftUpdate } from './types';

export interface DraftAnalysis {
  validation: DraftValidation;
  diff: DraftDiff;
  /** The rows against the restrictions in force (AnalyzerOptions): certain first. */
  restrictions: Violation[];
}

export interface DraftAnalyzer {
  /**
   * Sets the current target and holdings the draft is compared with (copied: later changes
   * to the arrays passed in are not seen). Call it again whenever either changes.
   */
  setContext(
    target: readonly TargetPosition[] | null,
    holdings: readonly HeldPosition[],
    options?: AnalyzerOptions,
  ): void;
  /**
   * Validates the draft and diffs it against the context. The answer equals
   * validateDraft(rows, {previousTarget: target}) and diffDraft(that, target, holdings, {stale}).
   */
  analyze(rows: readonly DraftRowInput[]): DraftAnalysis;
  /**
   * The editor's keystroke path: like analyze, but the caller names the rows it changed since
   * the last call (any other row must be unchanged), so no row is compared or copied. The
   * answer's arrays are live views owned by the analyzer, valid until the next call.
   * `changed` null: any row may have changed or moved; every row is redone.
   */
  update(rows: readonly DraftRowInput[], changed: readonly number[] | null): DraftUpdate;
}

/** Beyond this many changed rows in one call, starting over is as cheap as patching. */
const PATCH_LIMIT = 64;

/**
 * The draft editor's validator: one per open draft. It remembers the last rows it saw and,
 * when the row count is unchanged, redoes only the rows whose symbol or weight changed (plus
 * the rows sharing their symbols, for duplicates), patches the total and the left-out rows.
 * A keystroke then costs a string comparison per row instead of a Decimal parse per row.
 * Inserting or deleting rows, or a new context, starts over (linear).
 */
export function createDraftAnalyzer(
  target: readonly TargetPosition[] | null = [],
  holdings: readonly HeldPosition[] = [],
  options: AnalyzerOptions = {},
): DraftAnalyzer {
  let context = makeDraftContext(target, holdings, options);
  let state: State | null = null;
  return {
    setContext(nextTarget, nextHoldings, nextOptions = {}) {
      context = makeDraftContext(nextTarget, nextHoldings, nextOptions);
      state = null;
    },
    analyze(rows) {
      if (!state || rows.length !== state.symbols.length || !patch(state, rows, null))
        state = rebuild(rows, context);
      return answer(state);
    },
    update(rows, changed) {
      let refreshed: readonly number[] | null = null;
      if (state && changed && rows.length === state.symbols.length && changed.length <= PATCH_LIMIT)
        refreshed = patch(state, rows, changed);
      if (!refreshed) {
        state = rebuild(rows, context);
        return liveAnswer(state, true, ALL);
      }
      return liveAnswer(state!, false, refreshed);
    },
  };
}

/**
 * The rows against the restrictions: only the restricted symbols are looked up (their first
 * row's weight), so a long list costs its own length, not the draft's.
 */
function restrictionsOf(state: State): Violation[] {
  const { restrictions, heldRestricted } = state.context;
  if (restrictions.size === 0) return [];
  const rows: { symbol: string; weight: string }[] = [];
  for (const symbol of restrictions.keys()) {
    const at = state.bySymbol.get(symbol);
    if (at) rows.push({ symbol, weight: state.weights[at[0]!]! });
  }
  return classifyTarget(rows, heldRestricted, restrictions);
}

interface State {
  /** The raw strings last seen, to spot changed rows. */
  symbols: string[];
  weights: string[];
  cores: RowCore[];
  validated: ValidatedRow[];
  diffRows: DiffRow[];
  /** Row indexes per normalized symbol, ascending (as validateDraft lists them). */
  bySymbol: Map<string, number[]>;
  total: Decimal;
  zeroRows: number;
  errorRows: number;
  /** Target symbols no row names. */
  leftOut: number;
  /** Rows of symbols the draft leaves out, in context order, with their order keys. */
  leftOutRows: DiffRow[];
  leftOutKeys: number[];
  context: DraftContext;
}

function rebuild(rows: readonly DraftRowInput[], context: DraftContext): State {
  const state: State = {
    symbols: rows.map((r) => r.symbol),
    weights: rows.map((r) => r.weight),
    cores: new Array(rows.length),
    validated: new Array(rows.length),
    diffRows: new Array(rows.length),
    bySymbol: new Map(),
    total: new Exact(0),
    zeroRows: 0,
    errorRows: 0,
    leftOut: 0,
    leftOutRows: [],
    leftOutKeys: [],
    context,
  };
  for (let i = 0; i < rows.length; i++) {
    const core = inspectRow(rows[i]!.symbol, rows[i]!.weight);
    state.cores[i] = core;
    if (core.decimal) state.total = state.total.plus(core.decimal);
    if (core.zero) state.zeroRows++;
    if (core.symbol !== '') {
      const list = state.bySymbol.get(core.symbol);
      if (list) list.push(i);
      else state.bySymbol.set(core.symbol, [i]);
    }
  }
  for (let i = 0; i < rows.length; i++) refreshRow(state, i);
  const { targetMap, held, order } = context;
  for (const symbol of targetMap.keys()) if (!state.bySymbol.has(symbol)) state.leftOut++;
  state.leftOutRows = leftOutRows(targetMap, held, (s) => state.bySymbol.has(s), context.doubt);
  state.leftOutKeys = state.leftOutRows.map((row) => order.get(row.symbol)!);
  return state;
}

const ALL: readonly number[] = [];
const NOTHING: readonly number[] = [];

/**
 * Applies the changed rows and answers the rows it recomputed; null when too many changed
 * (the caller rebuilds). `known`: the changed rows when the caller knows them, else null and
 * every row is compared.
 */
function patch(
  state: State,
  rows: readonly DraftRowInput[],
  known: readonly number[] | null,
): readonly number[] | null {
  const symbols = state.symbols;
  const weights = state.weights;
  let changed: number[] = [];
  if (known) {
    for (const i of known) {
      const row = rows[i]!;
      if (row.symbol !== symbols[i] || row.weight !== weights[i]) changed.push(i);
    }
  } else {
    // The hot loop of a keystroke without a hint: locals, so nothing is reloaded per row.
    const n = rows.length;
    for (let i = 0; i < n; i++) {
      const row = rows[i]!;
      if (row.symbol !== symbols[i] || row.weight !== weights[i]) {
        if (changed.push(i) > PATCH_LIMIT) return null;
      }
    }
  }
  if (changed.length === 0) return NOTHING;
  changed = [...new Set(changed)];

  const touchedSymbols = new Set<string>();
  const dirty = new Set<number>(changed);
  for (const i of changed) {
    const before = state.cores[i]!;
    const after = inspectRow(rows[i]!.symbol, rows[i]!.weight);
    state.symbols[i] = rows[i]!.symbol;
    state.weights[i] = rows[i]!.weight;
    state.cores[i] = after;
    if (before.decimal) state.total = state.total.minus(before.decimal);
    if (after.decimal) state.total = state.total.plus(after.decimal);
    state.zeroRows += Number(after.zero) - Number(before.zero);
    if (before.symbol === after.symbol) continue;
    touchedSymbols.add(before.symbol);
    touchedSymbols.add(after.symbol);
    if (before.symbol !== '') removeIndex(state, before.symbol, i);
    if (after.symbol !== '') addIndex(state, after.symbol, i);
  }
  // Rows sharing a touched symbol may gain or lose their duplicate error.
  for (const symbol of touchedSymbols)
    for (const j of state.bySymbol.get(symbol) ?? []) dirty.add(j);
  for (const i of dirty) refreshRow(state, i);
  return [...dirty];
}

function removeIndex(state: State, symbol: string, index: number): void {
  const list = state.bySymbol.get(symbol)!;
  list.splice(list.indexOf(index), 1);
  if (list.length > 0) return;
  state.bySymbol.delete(symbol);
  if (state.context.targetMap.has(symbol)) state.leftOut++;
  const key = state.context.order.get(symbol);
  if (key === undefined) return;
  // The symbol is now left out: its row joins the left-out rows at its place.
  const at = searchKey(state.leftOutKeys, key);
  state.leftOutKeys.splice(at, 0, key);
  state.leftOutRows.splice(at, 0, leftOutRowOf(state.context, symbol));
}

/** First position whose key is >= key (keys ascending). */
function searchKey(keys: readonly number[], key: number): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function addIndex(state: State, symbol: string, index: number): void {
  const list = state.bySymbol.get(symbol);
  if (!list) {
    state.bySymbol.set(symbol, [index]);
    if (state.context.targetMap.has(symbol)) state.leftOut--;
    const key = state.context.order.get(symbol);
    if (key !== undefined) {
      const at = searchKey(state.leftOutKeys, key);
      state.leftOutKeys.splice(at, 1);
      state.leftOutRows.splice(at, 1);
    }
    return;
  }
  let at = list.length;
  while (at > 0 && list[at - 1]! > index) at--;
  list.splice(at, 0, index);
}

const NONE: readonly number[] = [];

function refreshRow(state: State, i: number): void {
  const core = state.cores[i]!;
  const same = core.symbol === '' ? NONE : (state.bySymbol.get(core.symbol) ?? NONE);
  let errors = rowErrors(i, core, same);
  const context = state.context;
  if (context.liquidateOnly && core.decimal && !core.weightIssue) {
    const old = context.known ? (context.targetMap.get(core.symbol)?.decimal ?? ZERO) : null;
    const error = liquidateOnlyError(i, core.symbol, core.decimal, old);
    if (error) errors = [...errors, error];
  }
  const previous = state.validated[i];
  if (previous && previous.errors.length > 0) state.errorRows--;
  if (errors.length > 0) state.errorRows++;
  const row: ValidatedRow = { index: i, symbol: core.symbol, weight: core.weight, errors };
  state.validated[i] = row;
  state.diffRows[i] = draftDiffRow(
    row,
    core.decimal,
    context.targetMap,
    context.held,
    context.doubt,
  );
}

function liveAnswer(state: State, rebuilt: boolean, refreshed: readonly number[]): DraftUpdate {
  const errors = errorsOf(state);
  return {
    rebuilt,
    refreshed,
    validated: state.validated,
    diffRows: state.diffRows,
    leftOut: state.leftOutRows,
    errors,
    total: plain(state.total),
    cash: plain(HUNDRED.minus(state.total)),
    oldCash: state.context.oldCash,
    doubt: state.context.doubt,
    errorRows: state.errorRows,
    valid: state.errorRows === 0 && errors.length === 0,
    restrictions: restrictionsOf(state),
  };
}

function errorsOf(state: State) {
  const rowCount = state.cores.length;
  return draftErrors({
    rowCount,
    total: state.total,
    allZero: state.zeroRows === rowCount,
    hasTarget: state.context.targetMap.size > 0 || !state.context.known,
    leftOut: state.leftOut,
  });
}

function answer(state: State): DraftAnalysis {
  const errors = errorsOf(state);
  const cash = plain(HUNDRED.minus(state.total));
  return {
    validation: {
      rows: state.validated.slice(),
      errors,
      total: plain(state.total),
      cash,
      valid: state.errorRows === 0 && errors.length === 0,
    },
    diff: {
      rows:
        state.leftOutRows.length === 0
          ? state.diffRows.slice()
          : state.diffRows.concat(state.leftOutRows),
      oldCash: state.context.oldCash,
      newCash: cash,
      doubt: state.context.doubt,
    },
    restrictions: restrictionsOf(state),
  };
}
