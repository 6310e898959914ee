import type { BookRow } from '../../../shared/book/views';
import { BOOK_SYNC } from '../../../shared/models/sync';
import type { ModelMoves } from '../models/models.svelte';

/**
 * The rows of one query of the book read so far, by their place, and the pages on their way.
 * Plain (not reactive): the store bumps its revision when they change.
 */
export class BookRows {
  private readonly rows = new Map<number, BookRow>();
  private readonly pending = new Set<number>();

  at(index: number): BookRow | undefined {
    return this.rows.get(index);
  }

  /** Takes rows read from `offset`; drops rows past the end (the book shrank). */
  received(offset: number, rows: readonly BookRow[], total: number): void {
    rows.forEach((row, i) => this.rows.set(offset + i, row));
    for (const index of this.rows.keys()) if (index >= total) this.rows.delete(index);
  }

  /** Whether every row of the page is in hand. */
  hasPage(page: number, size: number, total: number): boolean {
    const last = Math.min(total, (page + 1) * size);
    for (let i = page * size; i < last; i++) if (!this.rows.has(i)) return false;
    return true;
  }

  isAsked(page: number): boolean {
    return this.pending.has(page);
  }

  asked(page: number): void {
    this.pending.add(page);
  }

  answered(page: number): void {
    this.pending.delete(page);
  }

  /** Rows read again elsewhere replace those in hand; true when any did. */
  replace(fresh: readonly BookRow[]): boolean {
    const byId = new Map(fresh.map((r) => [r.strategyId, r]));
    let replaced = false;
    for (const [index, row] of this.rows) {
      const again = byId.get(row.strategyId);
      if (again) {
        this.rows.set(index, again);
        replaced = true;
      }
    }
    return replaced;
  }

  /** The model column of `profileId`'s rows in hand that moved; true when any did. */
  patchModels(profileId: string, moves: ModelMoves): boolean {
    const models = new Map<string, BookRow['model']>();
    for (const { profileId: of, strategyId, follows: f } of moves)
      if (of === profileId)
        models.set(
          strategyId,
          f && { id: f.modelId, name: f.modelName, sync: BOOK_SYNC[f.sync.state] },
        );
    let patched = false;
    for (const [index, row] of this.rows) {
      if (!models.has(row.strategyId)) continue;
      this.rows.set(index, { ...row, model: models.get(row.strategyId)! });
      patched = true;
    }
    return patched;
  }
}

/** A choice of rows with one more (or one fewer). */
export function choiceWith(
  chosen: ReadonlySet<string>,
  strategyId: string,
  on: boolean,
): ReadonlySet<string> {
  const next = new Set(chosen);
  if (on) next.add(strategyId);
  else next.delete(strategyId);
  return next;
}

export const NO_CHOICE: ReadonlySet<string> = new Set();

/** Outcome lines by their place, with one page more. */
export function withLines<T>(lines: ReadonlyMap<number, T>, offset: number, page: readonly T[]) {
  const next = new Map(lines);
  page.forEach((line, i) => next.set(offset + i, line));
  return next;
}

/**
 * Of two views of the same read of many strategies, the later: a call's answer may arrive after
 * the events that followed it (a short add can end before its own answer is in).
 */
export function laterJob<T extends { id: string; state: string; done: number }>(
  held: T | null,
  heard: T,
): T {
  if (!held || held.id !== heard.id) return heard;
  if (held.state !== 'running' && heard.state === 'running') return held;
  return heard.done >= held.done || heard.state !== 'running' ? heard : held;
}
