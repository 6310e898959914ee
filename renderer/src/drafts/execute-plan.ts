import type { DiffRow } from '../../../shared/draft/types';
import type { DraftUpdate } from '../../../shared/draft/analyzer';
import type { DeskError, JournalEntryView } from '../../../shared/views';

/**
 * The draft changes no weight of the known target and sells nothing: executing it is only a
 * rebalance back to the same target (the caller checks that a target is known).
 */
export function changesNothing(analysis: DraftUpdate): boolean {
  const same = (row: DiffRow) => row.action === 'IGNORE' && !row.sellsAll;
  return analysis.valid && analysis.leftOut.length === 0 && analysis.diffRows.every(same);
}

/** How the editor answers a failed execute: each kind of failure where it belongs. */
export type ExecuteFailure =
  | { kind: 'unknown_symbols'; symbols: string[]; error: DeskError }
  | { kind: 'unexecuted_version'; versionId: string | null; error: DeskError }
  | { kind: 'conflict'; versionId: string | null; error: DeskError }
  | { kind: 'ambiguous'; error: DeskError }
  | { kind: 'other'; error: DeskError }
  /** The fresh read before the confirmation failed: no confirmation, nothing sent. */
  | { kind: 'fresh-read'; error: DeskError };

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
