import type { DiffRow } from '../../../shared/draft/types';
import type { DraftUpdate } from '../../../shared/draft/analyzer';
import { isKind, serviceMayHaveActed } from '../../../shared/errors';
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
  | { kind: 'unknown-symbols'; symbols: string[]; error: DeskError }
  | { kind: 'unexecuted-version'; versionId: string | null; error: DeskError }
  | { kind: 'conflict'; versionId: string | null; error: DeskError }
  | { kind: 'ambiguous'; error: DeskError }
  | { kind: 'other'; error: DeskError }
  /** The fresh read before the confirmation failed: no confirmation, nothing sent. */
  | { kind: 'fresh-read'; error: DeskError };

/** Its details are typed by its kind: the host parsed them with the kind's schema. */
export function classifyExecuteError(error: DeskError): ExecuteFailure {
  if (serviceMayHaveActed(error)) return { kind: 'ambiguous', error };
  if (isKind(error, 'unknown-symbols'))
    return { kind: 'unknown-symbols', symbols: error.details?.unknownSymbols ?? [], error };
  if (isKind(error, 'unexecuted-version', 'conflict'))
    return { kind: error.kind, versionId: error.details?.versionId ?? null, error };
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
