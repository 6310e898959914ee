import type { PositionAction } from '../../../shared/domain/resources';
import type { DiffRow } from '../../../shared/draft/types';
import type { DraftUpdate } from '../../../shared/draft/analyzer';
import type { DeskError, JournalEntryView } from '../../../shared/views';

/** What the confirmation lists: the positions that move, cash before and after, what is sold. */
export interface ExecutePlan {
  lines: { symbol: string; action: PositionAction; oldWeight: string; newWeight: string }[];
  unchanged: number;
  /** Held symbols in neither the draft nor the target: the rebalance sells them. */
  soldOff: string[];
  oldCash: string;
  newCash: string;
}

const ORDER: Record<PositionAction, number> = { ADD: 0, CHANGE: 1, REMOVE: 2, IGNORE: 3 };

export function executePlan(analysis: DraftUpdate): ExecutePlan {
  const lines: ExecutePlan['lines'] = [];
  let unchanged = 0;
  const soldOff: string[] = [];
  const take = (row: DiffRow) => {
    if (row.action === null) {
      if (row.heldNotInDraft && !row.inTargetNotInDraft) soldOff.push(row.symbol);
      return;
    }
    if (row.action === 'IGNORE') unchanged++;
    else
      lines.push({
        symbol: row.symbol,
        action: row.action,
        oldWeight: row.oldWeight,
        newWeight: row.newWeight,
      });
  };
  analysis.diffRows.forEach(take);
  analysis.leftOut.forEach(take);
  lines.sort((a, b) => ORDER[a.action] - ORDER[b.action]);
  return { lines, unchanged, soldOff, oldCash: analysis.oldCash, newCash: analysis.cash };
}

/** How the editor answers a failed execute: each kind of failure where it belongs. */
export type ExecuteFailure =
  | { kind: 'unknown_symbols'; symbols: string[]; error: DeskError }
  | { kind: 'unexecuted_version'; versionId: string | null; error: DeskError }
  | { kind: 'conflict'; versionId: string | null; error: DeskError }
  | { kind: 'ambiguous'; error: DeskError }
  | { kind: 'other'; error: DeskError };

export function classifyExecuteError(error: DeskError): ExecuteFailure {
  const details = error.details ?? {};
  const versionId = typeof details.versionId === 'string' ? details.versionId : null;
  if (details.ambiguous === true) return { kind: 'ambiguous', error };
  if (error.kind === 'unknown-symbols') {
    const raw = Array.isArray(details.unknownSymbols) ? details.unknownSymbols : [];
    return {
      kind: 'unknown_symbols',
      symbols: raw.filter((s): s is string => typeof s === 'string'),
      error,
    };
  }
  if (error.kind === 'unexecuted-version') return { kind: 'unexecuted_version', versionId, error };
  if (error.kind === 'conflict') return { kind: 'conflict', versionId, error };
  return { kind: 'other', error };
}

/** Journal entries of this strategy whose outcome nobody knows yet. */
export function unknownEntries(entries: readonly JournalEntryView[], strategyId: string) {
  return entries.filter((e) => e.strategyId === strategyId && e.state === 'unknown');
}

/** Turns text (a pasted id) into a version id, or null with nothing to say. */
export function parseVersionId(text: string): string | null {
  const id = text.trim().toLowerCase();
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id) ? id : null;
}
