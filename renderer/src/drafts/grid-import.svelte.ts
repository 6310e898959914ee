import {
  describePaste,
  parseDraftPaste,
  pasteProblems,
  PASTE_LIMITS,
  rescaleToTotal,
  type PastedRow,
} from '../../../shared/draft';
import { setTargetCash } from '../../../shared/draft/cash';
import { count } from '../../../shared/draft/exact';
import { asDeskError } from '../lib/errors';
import type { DraftEditing } from './draft-editing.svelte';

/** What the last paste, import or rescale did, shown over the grid until dismissed. */
export type GridNotice = { text: string; lines: string[]; error: boolean };

/** What the grid holds, in the notices' words ("the draft", "the model"). */
export type GridNoun = 'draft' | 'model';

/** A file read into a grid that has rows: waiting for the manager to replace them or merge. */
export type PendingImport = {
  source: string;
  rows: PastedRow[];
  problems: string[];
  /** The grid's rows (with a symbol or a weight) when the file was read. */
  held: number;
};

/**
 * Reads an imported file's text another way than the paste reader (a model's: the desk reads
 * it): the rows read, and its problems line by line. A failure is said in the notice.
 */
export type ImportReader = (text: string) => Promise<{ rows: PastedRow[]; problems: string[] }>;

/**
 * Rows brought into the draft grid from outside (a paste, the clipboard, a CSV file) and the
 * rescale to a total, for every editor built on it (a draft, a model): each says what it did in
 * `notice`. Every line read becomes a row; lines the rules refuse stay marked in the grid (and
 * listed in the problems below it), so the notice may be dismissed without losing anything.
 */
export class GridImport {
  notice = $state<GridNotice | null>(null);
  /** A model's import into rows it already has, asked about before anything changes. */
  pending = $state.raw<PendingImport | null>(null);

  constructor(
    private readonly editing: DraftEditing,
    readonly noun: GridNoun,
    private readonly readImport?: ImportReader,
  ) {}

  /** `at`: the focused row of a paste into the grid, which new symbols fill from. */
  merge(text: string, source: string, at: number | null = null): void {
    const result = parseDraftPaste(text);
    if (!result.ok) {
      this.notice = { text: `${source}: ${result.error}`, lines: [], error: true };
      return;
    }
    this.mergeRows(result.rows, source, at);
  }

  /** Rows already read (a paste's, or an import's) merged into the grid. */
  private mergeRows(rows: PastedRow[], source: string, at: number | null): void {
    if (rows.length === 0) {
      this.notice = {
        text: `${source}: the text holds no rows. Nothing was added.`,
        lines: [],
        error: true,
      };
      return;
    }
    const { change, updated, added } = this.editing.model.mergeRows(rows, at);
    this.editing.apply(change);
    const problems = pasteProblems(rows);
    this.notice = {
      text: `${source}: ${describePaste(rows, { added, updated })}`,
      lines: problems,
      error: problems.length > 0,
    };
  }

  /** The clipboard's text, where the page may read it (else: how to paste instead). */
  paste(text: string | null): void {
    if (text) this.merge(text, 'Pasted');
    else
      this.notice = {
        text: 'The clipboard cannot be read from here: click a cell and press Ctrl+V (⌘V).',
        lines: [],
        error: false,
      };
  }

  async importFile(file: { name: string; size: number; text(): Promise<string> }): Promise<void> {
    const source = `Imported ${file.name}`;
    // No text of this size fits the parser's limit (a character is at most 4 bytes): not read.
    if (file.size > PASTE_LIMITS.characters * 4) {
      this.notice = {
        text:
          `${source}: the file has ${count(file.size)} bytes; an import takes at ` +
          `most ${count(PASTE_LIMITS.characters)} characters (about 1 MB). Nothing was added.`,
        lines: [],
        error: true,
      };
      return;
    }
    if (!this.readImport) {
      this.merge(await file.text(), source);
      return;
    }
    try {
      const read = await this.readImport(await file.text());
      const held = this.editing.model.rows.filter(
        (r) => r.symbol.trim() !== '' || r.weight.trim() !== '',
      ).length;
      // A model's rows are its whole content: replace them or merge into them is asked.
      if (this.noun === 'model' && held > 0 && read.rows.length > 0) {
        this.notice = null;
        this.pending = { source, rows: read.rows, problems: read.problems, held };
        return;
      }
      this.placeImport(read.rows, read.problems, source, 'merge');
    } catch (error) {
      this.notice = { text: `${source}: ${asDeskError(error).message}`, lines: [], error: true };
    }
  }

  /** The pending import's rows replace the grid's, or are merged into them; or nothing. */
  settleImport(how: 'replace' | 'merge' | 'cancel'): void {
    const pending = this.pending;
    this.pending = null;
    if (!pending) return;
    if (how === 'cancel') {
      this.notice = { text: `${pending.source}: nothing was changed.`, lines: [], error: false };
      return;
    }
    this.placeImport(pending.rows, pending.problems, pending.source, how, pending.held);
  }

  private placeImport(
    rows: PastedRow[],
    problems: string[],
    source: string,
    how: 'replace' | 'merge',
    held = 0,
  ): void {
    if (how === 'merge') this.mergeRows(rows, source, null);
    else {
      const model = this.editing.model;
      this.editing.apply(
        model.replaceAll(rows.map((r) => ({ symbol: r.symbol, weight: r.weight, locked: false }))),
      );
      const bad = rows.filter((r) => r.problem !== null).length;
      this.notice = {
        text:
          `${source}: the ${this.noun}'s ${count(held)} ${held === 1 ? 'row was' : 'rows were'} ` +
          `replaced by the file's ${count(rows.length)}.` +
          (bad > 0 ? ` ${count(bad)} marked in the grid: fix or remove them before saving.` : ''),
        lines: [],
        error: false,
      };
    }
    // The reader's problems, line by line, in place of the rows'.
    if (problems.length > 0 && this.notice)
      this.notice = { ...this.notice, lines: problems, error: true };
  }

  /** The whole grid reaches the total: locked rows keep their weight, the others scale. */
  rescale(total: string): void {
    const model = this.editing.model;
    const result = rescaleToTotal(model.rows, total, model.lockedIndexes());
    if (!result.ok) {
      this.notice = { text: result.error, lines: [], error: true };
      return;
    }
    this.editing.apply(model.setWeights(result.rows.map((r) => r.weight)));
    const now = this.editing.analysis.total;
    this.notice = {
      text:
        result.lockedTotal === '0'
          ? `Rescaled: the ${this.noun} now totals ${now} %.`
          : `Rescaled: the ${this.noun} now totals ${now} %; the locked rows keep their ` +
            `${result.lockedTotal} % and the unlocked rows share the rest.`,
      lines: [],
      error: false,
    };
  }

  /**
   * "Set target cash to X %" (shared/draft/cash.ts): the unlocked rows scaled so the weights
   * leave exactly X; each moved row named with both weights.
   */
  setCash(cash: string): void {
    const model = this.editing.model;
    const result = setTargetCash(model.rows, cash, model.lockedIndexes());
    if (!result.ok) {
      this.notice = { text: result.error, lines: [], error: true };
      return;
    }
    this.editing.apply(model.setWeights(result.rows.map((r) => r.weight)));
    const moved = result.changes.length;
    this.notice = {
      text:
        `Target cash set to ${result.cashAfter} % (it was ${result.cashBefore} %): ` +
        `${count(moved)} ${moved === 1 ? 'row' : 'rows'} scaled` +
        (model.lockedIndexes().size > 0 ? '; the locked rows keep their weight.' : '.'),
      lines: result.changes.map((c) => `${c.symbol}: ${c.from} % → ${c.to} %`),
      error: false,
    };
  }

  dismiss(): void {
    this.notice = null;
  }
}
