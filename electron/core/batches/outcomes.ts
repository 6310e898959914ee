import type { ExclusionKind } from '../../../shared/batches/states';
import { isKind } from '../../../shared/errors';
import { isServiceError } from '../api';
import { systemErrorKind, toDeskError } from '../errors';
import { StoreError } from '../store/errors';
import { ExecutionBlockedError } from '../execution/errors';

/** How a batch's sending reads when it fails (send.ts): an item's failure, the app's own fault. */

/** How an execution's failure leaves its item. */
export function settledFailure(error: unknown): {
  state: 'refused' | 'unknown' | 'skipped';
  exclusionKind: ExclusionKind | null;
  reason: string;
  errorKind: string;
} {
  const desk = toDeskError(error);
  if (isKind(desk, 'confirmation-outdated'))
    return {
      state: 'skipped',
      exclusionKind: 'changed-since-review',
      reason:
        'Changed since the review (its holdings, its known target or another execution): not sent. Review it again.',
      errorKind: desk.kind,
    };
  if (isKind(desk, 'stale-not-acknowledged'))
    return {
      state: 'skipped',
      exclusionKind: 'not-acknowledged',
      reason: desk.message,
      errorKind: desk.kind,
    };
  if (error instanceof ExecutionBlockedError)
    return {
      state: 'skipped',
      exclusionKind: 'blocked',
      reason: error.message,
      errorKind: desk.kind,
    };
  if (isServiceError(error, 'unexecuted-version'))
    return {
      state: 'refused',
      exclusionKind: 'unexecuted-version',
      reason: `${desk.message}. Open the strategy to see the version in the way and delete it there, then review again.`,
      errorKind: desk.kind,
    };
  if (isServiceError(error) && error.ambiguous)
    return {
      state: 'unknown',
      exclusionKind: null,
      reason: `${desk.message}. The outcome is unknown: retry it with the same key or dismiss it from the strategy.`,
      errorKind: desk.kind,
    };
  return { state: 'refused', exclusionKind: null, reason: desk.message, errorKind: desk.kind };
}

/** Why the app's own failure stopped sending: as an unsent item says it, and as the batch does. */
export function faultWords(error: unknown): { item: string; batch: string } {
  const desk = toDeskError(error);
  if (!isKind(desk, 'internal')) {
    const why = desk.message.replace(/\.$/, '');
    return { item: why, batch: why };
  }
  return {
    item: 'the app failed to record it (the log says how)',
    batch: 'the app failed to record what it sent (the log says how)',
  };
}

/**
 * The app's own failure, not the item's: its data file or its disk refused a write (a store, a
 * SQLite or a file-system error). Sending stops on it (send.ts). A refusal of the service, a
 * check that failed or the batch's stop is the item's outcome.
 */
export function isOwnFault(error: unknown): boolean {
  if (isServiceError(error)) return false;
  if (error instanceof StoreError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code.startsWith('SQLITE_') || systemErrorKind(error) !== null)
  );
}
