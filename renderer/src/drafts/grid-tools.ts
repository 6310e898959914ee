import {
  describePaste,
  parseDraftPaste,
  pasteProblems,
  PASTE_LIMITS,
  rescaleToTotal,
} from '../../../shared/draft';
import { count } from '../../../shared/draft/exact';
import type { DraftEditing } from './draft-editing.svelte';

/**
 * The grid's tools as plain functions over the editing state, for every editor built on the
 * draft grid (a draft, a model): merging pasted or imported text, rescaling, undo keys. Each
 * answers the notice the editor shows.
 */

export interface GridNotice {
  text: string;
  lines: string[];
  error: boolean;
}

/** What the grid holds, in the notices' words ("the draft", "the model"). */
export type GridNoun = 'draft' | 'model';

/**
 * `at`: the focused row of a paste into the grid, which new symbols fill from. Every line read
 * becomes a row; lines the rules refuse stay marked in the grid (and listed in the problems
 * below it), so the notice may be dismissed without losing anything.
 */
export function mergeText(
  editing: DraftEditing,
  text: string,
  source: string,
  at: number | null = null,
): GridNotice {
  const result = parseDraftPaste(text);
  if (!result.ok) return { text: `${source}: ${result.error}`, lines: [], error: true };
  return mergeRows(editing, result.rows, source, at);
}

/** Rows already read (a paste's, or an import the desk read) merged into the grid. */
export function mergeRows(
  editing: DraftEditing,
  rows: Parameters<typeof describePaste>[0],
  source: string,
  at: number | null = null,
): GridNotice {
  if (rows.length === 0)
    return {
      text: `${source}: the text holds no rows. Nothing was added.`,
      lines: [],
      error: true,
    };
  const { change, updated, added } = editing.model.mergeRows(rows, at);
  editing.apply(change);
  const problems = pasteProblems(rows);
  return {
    text: `${source}: ${describePaste(rows, { added, updated })}`,
    lines: problems,
    error: problems.length > 0,
  };
}

/** No text of this size fits the parser's limit (a character is at most 4 bytes): not read. */
export function fileTooLarge(file: File): GridNotice | null {
  if (file.size <= PASTE_LIMITS.characters * 4) return null;
  return {
    text:
      `Imported ${file.name}: the file has ${count(file.size)} bytes; an import takes at ` +
      `most ${count(PASTE_LIMITS.characters)} characters (about 1 MB). Nothing was added.`,
    lines: [],
    error: true,
  };
}

/** Scales the unlocked rows so that every row, locked ones kept, adds up to `total`. */
export function rescale(editing: DraftEditing, total: string, noun: GridNoun): GridNotice {
  const model = editing.model;
  const result = rescaleToTotal(model.rows, total, model.lockedIndexes());
  if (!result.ok) return { text: result.error, lines: [], error: true };
  editing.apply(model.setWeights(result.rows.map((r) => r.weight)));
  const now = editing.analysis.total;
  return {
    text:
      result.lockedTotal === '0'
        ? `Rescaled: the ${noun} now totals ${now} %.`
        : `Rescaled: the ${noun} now totals ${now} %; the locked rows keep their ` +
          `${result.lockedTotal} % and the unlocked rows share the rest.`,
    lines: [],
    error: false,
  };
}

/** Ctrl+Z undoes, Ctrl+Shift+Z and Ctrl+Y redo (⌘ on macOS). */
export function undoKeys(event: KeyboardEvent, editing: DraftEditing): void {
  if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
  const key = event.key.toLowerCase();
  if (key === 'z' && !event.shiftKey) {
    event.preventDefault();
    editing.apply(editing.model.undo());
  } else if ((key === 'z' && event.shiftKey) || key === 'y') {
    event.preventDefault();
    editing.apply(editing.model.redo());
  }
}
