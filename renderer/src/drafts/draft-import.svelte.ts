import {
  describePaste,
  parseDraftPaste,
  pasteProblems,
  PASTE_LIMITS,
  rescaleToTotal,
} from '../../../shared/draft';
import { count } from '../../../shared/draft/exact';
import type { DraftEditing } from './draft-editing.svelte';

/** What the last paste, import or rescale did, shown over the grid until dismissed. */
export type DraftNotice = { text: string; lines: string[]; error: boolean };

/**
 * Rows brought into a draft from outside (a paste, the clipboard, a CSV file) and the rescale to
 * a total: each says what it did in `notice`. Every line read becomes a row; lines the draft
 * refuses stay marked in the grid (and listed in the problems below it), so the notice may be
 * dismissed without losing anything.
 */
export class DraftImport {
  notice = $state<DraftNotice | null>(null);

  constructor(private readonly editing: DraftEditing) {}

  /** `at`: the focused row of a paste into the grid, which new symbols fill from. */
  merge(text: string, source: string, at: number | null = null): void {
    const result = parseDraftPaste(text);
    if (!result.ok) {
      this.notice = { text: `${source}: ${result.error}`, lines: [], error: true };
      return;
    }
    if (result.rows.length === 0) {
      this.notice = {
        text: `${source}: the text holds no rows. Nothing was added.`,
        lines: [],
        error: true,
      };
      return;
    }
    const { change, updated, added } = this.editing.model.mergeRows(result.rows, at);
    this.editing.apply(change);
    const problems = pasteProblems(result.rows);
    this.notice = {
      text: `${source}: ${describePaste(result.rows, { added, updated })}`,
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
    // No text of this size fits the parser's limit (a character is at most 4 bytes): not read.
    if (file.size > PASTE_LIMITS.characters * 4) {
      this.notice = {
        text:
          `Imported ${file.name}: the file has ${count(file.size)} bytes; an import takes at ` +
          `most ${count(PASTE_LIMITS.characters)} characters (about 1 MB). Nothing was added.`,
        lines: [],
        error: true,
      };
      return;
    }
    this.merge(await file.text(), `Imported ${file.name}`);
  }

  /** The whole draft reaches the total: locked rows keep their weight, the others scale. */
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
          ? `Rescaled: the draft now totals ${now} %.`
          : `Rescaled: the draft now totals ${now} %; the locked rows keep their ` +
            `${result.lockedTotal} % and the unlocked rows share the rest.`,
      lines: [],
      error: false,
    };
  }

  dismiss(): void {
    this.notice = null;
  }
}
