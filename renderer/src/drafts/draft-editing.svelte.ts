import { SvelteSet } from 'svelte/reactivity';
import type { DraftUpdate } from '../../../shared/draft/analyzer';
import type { DiffRow } from '../../../shared/draft/types';
import type { Violation } from '../../../shared/restrictions/rules';
import type { DraftModel, ModelChange } from './draft-model';
import { rowView, violationsBySymbol, type RowView } from './grid-view';

/**
 * The draft model as the editor's screens see it: the model computes (and is tested and timed
 * without Svelte), and after each change this publishes what changed as Svelte state. A cell
 * edit replaces only that row's view object, so only that row of the grid re-renders.
 */
export class DraftEditing {
  /** One per draft row, in order. */
  views = $state.raw<readonly RowView[]>([]);
  analysis: DraftUpdate;
  /** A copy of the symbols the draft leaves out (the analyzer edits its own list in place). */
  leftOut = $state.raw<readonly DiffRow[]>([]);
  /** Draft rows with at least one error, ascending. */
  errorRows = $state.raw<readonly number[]>([]);
  canUndo = $state(false);
  canRedo = $state(false);
  /** Symbols the service said it does not know (last execute). */
  readonly unknown = new SvelteSet<string>();
  /** The rows against the restrictions in force, by symbol (the analyzer's, certain first). */
  violations = $state.raw<ReadonlyMap<string, Violation>>(violationsBySymbol([]));
  private violationsKey = '';

  constructor(
    readonly model: DraftModel,
    /** Called after each change made by the manager (not a new context), to save it soon. */
    private readonly onEdit: () => void,
  ) {
    this.analysis = $state.raw(model.analysis);
    this.publish({ structural: true, rows: [] });
  }

  /** After every change of the model made by the manager: publish it and save soon. */
  apply(change: ModelChange): void {
    if (this.publish(change)) this.onEdit();
  }

  undo(): void {
    this.apply(this.model.undo());
  }

  redo(): void {
    this.apply(this.model.redo());
  }

  /** Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (⌘ on macOS); other keys are left alone. */
  undoKeys(event: KeyboardEvent): void {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) {
      event.preventDefault();
      this.undo();
    } else if ((key === 'z' && event.shiftKey) || key === 'y') {
      event.preventDefault();
      this.redo();
    }
  }

  /** A new current target or holdings: the predictions change, the rows do not. */
  applyContext(change: ModelChange): void {
    this.publish(change);
  }

  /** Flags the rows whose symbol the service refused; returns the first such row. */
  markUnknown(symbols: readonly string[]): RowView | undefined {
    this.unknown.clear();
    for (const symbol of symbols) this.unknown.add(symbol);
    this.publish({ structural: true, rows: [] });
    return this.views.find((v) => v.unknown);
  }

  private publish(change: ModelChange): boolean {
    if (!change.structural && change.rows.length === 0) return false;
    const model = this.model;
    // A symbol's class follows its first row and the holdings: when any class changed, every
    // row is drawn again (the list is as long as the restricted symbols in the draft).
    const found = model.analysis.restrictions;
    const key = found.map((v) => `${v.symbol} ${v.level} ${v.message}`).join('\n');
    const reclassed = key !== this.violationsKey;
    if (reclassed) {
      this.violationsKey = key;
      this.violations = violationsBySymbol(found);
    }
    const violations = this.violations;
    if (change.structural || reclassed) {
      this.views = model.rows.map((_, i) => rowView(model, i, this.unknown, violations));
    } else {
      const views = this.views.slice();
      for (const i of change.rows) views[i] = rowView(model, i, this.unknown, violations);
      this.views = views;
    }
    this.analysis = model.analysis;
    this.leftOut = [...model.analysis.leftOut];
    this.errorRows = [...model.errorRows].sort((a, b) => a - b);
    this.canUndo = model.canUndo;
    this.canRedo = model.canRedo;
    return true;
  }
}
