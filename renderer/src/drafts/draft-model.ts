import {
  createDraftAnalyzer,
  type AnalyzerOptions,
  type DraftUpdate,
} from '../../../shared/draft/analyzer';
import { normalizeSymbol } from '../../../shared/draft/rules';
import type { HeldPosition, TargetPosition } from '../../../shared/draft/types';
import type { DraftRow } from '../../../shared/views';

/**
 * The draft editor's state, without Svelte: the rows, their keys for the grid, undo and redo,
 * and the live validation and diff. Every edit tells the analyzer which rows it touched, so a
 * keystroke costs the same in a 1,000-row draft as in a 100-row one (see draft-edit.bench.ts).
 * The screens see it through DraftEditing (draft-editing.svelte.ts), which publishes each
 * change as Svelte state.
 */

export type Field = 'symbol' | 'weight';

/** What an edit changed, for the grid: every row (structural) or just these indexes. */
export interface ModelChange {
  structural: boolean;
  rows: readonly number[];
}

type Step =
  | { kind: 'cell'; index: number; field: Field; before: DraftRow; after: DraftRow; group: number }
  | { kind: 'rows'; index: number; before: DraftRow; after: DraftRow }
  | {
      kind: 'all';
      before: DraftRow[];
      beforeKeys: number[];
      after: DraftRow[];
      afterKeys: number[];
    };

/** Undo keeps this many steps; older ones are dropped. */
const HISTORY_LIMIT = 500;

export class DraftModel {
  /** Mutated in place on a cell edit; read it, never keep it. */
  rows: DraftRow[] = [];
  /** A stable key per row for the keyed grid (rows move on insert and delete). */
  keys: number[] = [];
  analysis!: DraftUpdate;
  /** Indexes of draft rows with at least one error. */
  readonly errorRows = new Set<number>();
  /** Counts the changes (analyses), so a caller can tell that an edit was taken. */
  revision = 0;
  private nextKey = 1;
  private readonly analyzer;
  private undoSteps: Step[] = [];
  private redoSteps: Step[] = [];

  constructor(
    rows: readonly DraftRow[],
    target: readonly TargetPosition[] | null = [],
    holdings: readonly HeldPosition[] = [],
    options: AnalyzerOptions = {},
  ) {
    this.analyzer = createDraftAnalyzer(target, holdings, options);
    this.load(rows);
  }

  /** Replaces the rows without history (opening a draft). */
  load(rows: readonly DraftRow[]): ModelChange {
    this.rows = rows.map((r) => ({ ...r }));
    this.keys = this.rows.map(() => this.nextKey++);
    this.undoSteps = [];
    this.redoSteps = [];
    return this.reanalyze(null);
  }

  /** A new current target or holdings (the strategy was refreshed); null: no target known. */
  setContext(
    target: readonly TargetPosition[] | null,
    holdings: readonly HeldPosition[],
    options: AnalyzerOptions = {},
  ): ModelChange {
    this.analyzer.setContext(target, holdings, options);
    return this.reanalyze(null);
  }

  get canUndo(): boolean {
    return this.undoSteps.length > 0;
  }
  get canRedo(): boolean {
    return this.redoSteps.length > 0;
  }

  /**
   * One keystroke in a cell. Edits with the same `group` (one focus of one cell) on the same
   * cell merge into one undo step, so undo takes back the whole cell edit.
   */
  setCell(index: number, field: Field, value: string, group: number): ModelChange {
    const before = this.rows[index];
    if (!before || before[field] === value) return NO_CHANGE;
    const after = { ...before, [field]: value };
    this.rows[index] = after;
    const last = this.undoSteps[this.undoSteps.length - 1];
    if (
      last?.kind === 'cell' &&
      last.group === group &&
      last.index === index &&
      last.field === field
    )
      last.after = after;
    else this.record({ kind: 'cell', index, field, before, after, group });
    this.redoSteps.length = 0;
    return this.reanalyze([index]);
  }

  /** Escape: takes back the edit of this focus of the cell, if it is the latest step. */
  revertCell(index: number, field: Field, group: number): ModelChange {
    const last = this.undoSteps[this.undoSteps.length - 1];
    if (
      last?.kind !== 'cell' ||
      last.group !== group ||
      last.index !== index ||
      last.field !== field
    )
      return NO_CHANGE;
    this.undoSteps.pop();
    this.rows[index] = last.before;
    return this.reanalyze([index]);
  }

  setLocked(index: number, locked: boolean): ModelChange {
    const before = this.rows[index];
    if (!before || before.locked === locked) return NO_CHANGE;
    const after = { ...before, locked };
    this.rows[index] = after;
    this.record({ kind: 'rows', index, before, after });
    this.redoSteps.length = 0;
    return this.reanalyze([index]);
  }

  /**
   * Several rows at once (paste, import, set to 0, add, remove): one undo step. An edit that
   * leaves every row as it was records nothing, so no undo step ever changes nothing.
   */
  replaceAll(next: readonly DraftRow[], keys?: readonly number[]): ModelChange {
    if (this.sameRows(next, keys)) return NO_CHANGE;
    const step: Step = {
      kind: 'all',
      before: this.rows.slice(),
      beforeKeys: this.keys.slice(),
      after: next.slice(),
      afterKeys: keys ? keys.slice() : next.map((row, i) => this.keyFor(row, i)),
    };
    this.record(step);
    this.redoSteps.length = 0;
    return this.applyAll(step.after, step.afterKeys);
  }

  /** New weights for every row (a rescale): the rows keep their keys; one undo step. */
  setWeights(weights: readonly string[]): ModelChange {
    if (weights.length !== this.rows.length)
      throw new Error(`${weights.length} weights for ${this.rows.length} rows`);
    return this.replaceAll(
      this.rows.map((row, i) =>
        row.weight === weights[i] ? row : { ...row, weight: weights[i]! },
      ),
      this.keys,
    );
  }

  insertRow(at: number, row: DraftRow): ModelChange {
    const rows = this.rows.slice();
    const keys = this.keys.slice();
    rows.splice(at, 0, row);
    keys.splice(at, 0, this.nextKey++);
    return this.replaceAll(rows, keys);
  }

  removeRows(indexes: Iterable<number>): ModelChange {
    const gone = new Set(indexes);
    const rows: DraftRow[] = [];
    const keys: number[] = [];
    this.rows.forEach((row, i) => {
      if (gone.has(i)) return;
      rows.push(row);
      keys.push(this.keys[i]!);
    });
    return this.replaceAll(rows, keys);
  }

  /**
   * Rows read from a paste or an import: a symbol already in the draft gets the new weight (even
   * one the draft will refuse: the row then shows it, marked). Other rows fill the blank rows
   * from `from` on (the focused row, when it is blank), as a spreadsheet would, and the rest
   * follow them; without a blank focused row they are added at the end. No pasted row is lost:
   * a row without a symbol, or a symbol pasted twice, is added as a row of its own (the draft
   * marks it), never folded into another.
   */
  mergeRows(
    incoming: readonly { symbol: string; weight: string }[],
    from: number | null = null,
  ): {
    change: ModelChange;
    updated: number;
    added: number;
  } {
    const rows = this.rows.slice();
    const keys = this.keys.slice();
    const bySymbol = new Map<string, number>();
    rows.forEach((row, i) => {
      const symbol = normalizeSymbol(row.symbol);
      if (symbol && !bySymbol.has(symbol)) bySymbol.set(symbol, i);
    });
    const isBlank = (i: number) => rows[i]!.symbol.trim() === '' && rows[i]!.weight.trim() === '';
    // Where the next new symbol goes: into a blank row at `at`, or inserted at `at`.
    let at = from !== null && from < rows.length && isBlank(from) ? from : rows.length;
    let updated = 0;
    let added = 0;
    const pasted = new Set<string>();
    for (const row of incoming) {
      const symbol = normalizeSymbol(row.symbol);
      const existing = pasted.has(symbol) ? undefined : bySymbol.get(symbol);
      if (symbol !== '') pasted.add(symbol);
      if (existing !== undefined) {
        if (rows[existing]!.weight !== row.weight) updated++;
        rows[existing] = { ...rows[existing]!, weight: row.weight };
        continue;
      }
      const fresh = { symbol, weight: row.weight, locked: false };
      if (at < rows.length && isBlank(at)) {
        rows[at] = { ...fresh, locked: rows[at]!.locked };
      } else {
        rows.splice(at, 0, fresh);
        keys.splice(at, 0, this.nextKey++);
        for (const [s, i] of bySymbol) if (i >= at) bySymbol.set(s, i + 1);
      }
      if (symbol !== '' && !bySymbol.has(symbol)) bySymbol.set(symbol, at);
      at++;
      added++;
    }
    return { change: this.replaceAll(rows, keys), updated, added };
  }

  lockedIndexes(): Set<number> {
    const locked = new Set<number>();
    this.rows.forEach((row, i) => row.locked && locked.add(i));
    return locked;
  }

  undo(): ModelChange {
    const step = this.undoSteps.pop();
    if (!step) return NO_CHANGE;
    this.redoSteps.push(step);
    return this.applyStep(step, 'before');
  }

  redo(): ModelChange {
    const step = this.redoSteps.pop();
    if (!step) return NO_CHANGE;
    this.undoSteps.push(step);
    return this.applyStep(step, 'after');
  }

  /** A copy of the rows to save. */
  snapshot(): DraftRow[] {
    return this.rows.map((r) => ({ symbol: r.symbol, weight: r.weight, locked: r.locked }));
  }

  private applyStep(step: Step, side: 'before' | 'after'): ModelChange {
    if (step.kind === 'all')
      return this.applyAll(
        side === 'before' ? step.before : step.after,
        side === 'before' ? step.beforeKeys : step.afterKeys,
      );
    this.rows[step.index] = step[side];
    return this.reanalyze([step.index]);
  }

  private applyAll(rows: readonly DraftRow[], keys: readonly number[]): ModelChange {
    this.rows = rows.slice();
    this.keys = keys.slice();
    return this.reanalyze(null);
  }

  private sameRows(next: readonly DraftRow[], keys?: readonly number[]): boolean {
    if (next.length !== this.rows.length) return false;
    if (keys && keys.some((key, i) => key !== this.keys[i])) return false;
    return next.every((row, i) => {
      const now = this.rows[i]!;
      return row.symbol === now.symbol && row.weight === now.weight && row.locked === now.locked;
    });
  }

  private keyFor(row: DraftRow, i: number): number {
    return this.rows[i] === row ? this.keys[i]! : this.nextKey++;
  }

  private record(step: Step): void {
    this.undoSteps.push(step);
    if (this.undoSteps.length > HISTORY_LIMIT) this.undoSteps.shift();
  }

  /** `changed`: the rows touched, or null when any row may have changed or moved. */
  private reanalyze(changed: readonly number[] | null): ModelChange {
    this.revision++;
    const update = this.analyzer.update(this.rows, changed);
    this.analysis = update;
    if (update.rebuilt) {
      this.errorRows.clear();
      const validated = update.validated;
      for (let i = 0; i < validated.length; i++)
        if (validated[i]!.errors.length > 0) this.errorRows.add(i);
      return { structural: true, rows: [] };
    }
    for (const i of update.refreshed) {
      if (update.validated[i]!.errors.length > 0) this.errorRows.add(i);
      else this.errorRows.delete(i);
    }
    // A lock change touches no symbol or weight, yet its row must show it and be saved.
    const rows = update.refreshed.slice();
    for (const i of changed ?? []) if (!rows.includes(i)) rows.push(i);
    return { structural: false, rows };
  }
}

const NO_CHANGE: ModelChange = { structural: false, rows: [] };
