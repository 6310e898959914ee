import type { TargetPosition } from '../draft/types';
import type { ModelRowInput } from './canonical';
import { compareWeights, differingSymbols } from './compare';

/**
 * Whether a strategy holds the target of the model revision it follows: exact and price-free,
 * from what the app knows here (the latest executed version known, and whether the cached
 * holdings fit it; see shared/draft/target-check.ts). Nothing is read from the service.
 */

export type SyncStateName =
  'in-sync' | 'out-of-sync' | 'target-unknown' | 'possibly-changed-elsewhere' | 'rebalance-failed';

/** A symbol whose weight differs: the model revision's and the known target's ('0': not held). */
export interface SyncDifference {
  symbol: string;
  modelWeight: string;
  targetWeight: string;
}

/** Why the known target may no longer be the service's (the same facts as the target check). */
export interface ChangedElsewhere {
  heldNotInTarget: string[];
  targetNotHeld: string[];
  updatedAfter: boolean;
}

export type SyncState =
  /** The known target equals the revision, weight by weight. */
  | { state: 'in-sync' }
  /** The known target differs from the revision in these symbols (sorted). */
  | { state: 'out-of-sync'; differences: SyncDifference[] }
  /** No executed version of the strategy is known here: nothing to compare. */
  | { state: 'target-unknown' }
  /**
   * A target is known, but the holdings do not fit it or the strategy changed after it: another
   * version may have been executed elsewhere. `differences` compares with the last known target
   * (empty: it equalled the revision), only as a hint.
   */
  | { state: 'possibly-changed-elsewhere'; differences: SyncDifference[]; why: ChangedElsewhere }
  /**
   * The known target equals the revision, but the rebalance to it failed (its version ended
   * FAILED, or with failed orders): the strategy does not hold it. `failedSymbols`: the symbols
   * of its failed orders, sorted.
   */
  | { state: 'rebalance-failed'; versionId: string; failedSymbols: string[] };

/** The known target's rebalance, when it ended FAILED or with failed orders. */
export interface FailedRebalance {
  versionId: string;
  failedSymbols: readonly string[];
}

export interface KnownTarget {
  /** The latest executed version's positions (weight 0 ones target nothing). */
  positions: readonly TargetPosition[];
}

export interface TargetFit {
  heldNotInTarget: readonly string[];
  targetNotHeld: readonly string[];
  updatedAfter: boolean;
  fits: boolean;
}

/**
 * The sync state of a strategy following a revision. `target`: the known current target, null
 * when none is known; `check`: the holdings against it (null when not judged, as for an unknown
 * target); `failed`: the known target's rebalance, when it failed. In sync means the known
 * target equals the revision and its rebalance did not fail.
 */
export function syncStateOf(
  revisionRows: readonly ModelRowInput[],
  target: KnownTarget | null,
  check: TargetFit | null,
  failed: FailedRebalance | null = null,
): SyncState {
  if (target === null) return { state: 'target-unknown' };
  const differences = differingSymbols(compareWeights(revisionRows, targetRows(target))).map(
    (d) => ({ symbol: d.symbol, modelWeight: d.from, targetWeight: d.to }),
  );
  if (check !== null && !check.fits)
    return {
      state: 'possibly-changed-elsewhere',
      differences,
      why: {
        heldNotInTarget: [...check.heldNotInTarget],
        targetNotHeld: [...check.targetNotHeld],
        updatedAfter: check.updatedAfter,
      },
    };
  if (differences.length > 0) return { state: 'out-of-sync', differences };
  return failed === null
    ? { state: 'in-sync' }
    : {
        state: 'rebalance-failed',
        versionId: failed.versionId,
        failedSymbols: [...failed.failedSymbols],
      };
}

/** The target's positions, the first of a symbol named twice kept (as the draft reads a target). */
function targetRows(target: KnownTarget): ModelRowInput[] {
  const seen = new Set<string>();
  const rows: ModelRowInput[] = [];
  for (const p of target.positions) {
    const symbol = p.symbol.trim().toUpperCase();
    if (seen.has(symbol)) continue;
    seen.add(symbol);
    rows.push({ symbol, weight: p.weight });
  }
  return rows;
}

/** The book's model column names a sync state in one word of its own (shared/book/views.ts). */
export type BookSyncName =
  'in-sync' | 'out-of-sync' | 'target-unknown' | 'changed-elsewhere' | 'rebalance-failed';

export const BOOK_SYNC: Record<SyncStateName, BookSyncName> = {
  'in-sync': 'in-sync',
  'out-of-sync': 'out-of-sync',
  'target-unknown': 'target-unknown',
  'possibly-changed-elsewhere': 'changed-elsewhere',
  'rebalance-failed': 'rebalance-failed',
};

/** How a sync state reads in a line ("in sync", "out of sync: 3 symbols"). */
export function syncStateWords(sync: SyncState): string {
  switch (sync.state) {
    case 'in-sync':
      return 'in sync';
    case 'out-of-sync': {
      const n = sync.differences.length;
      return `out of sync: ${n} ${n === 1 ? 'symbol differs' : 'symbols differ'}`;
    }
    case 'target-unknown':
      return 'target unknown';
    case 'possibly-changed-elsewhere':
      return 'possibly changed elsewhere';
    case 'rebalance-failed':
      return sync.failedSymbols.length > 0
        ? `rebalance failed: ${sync.failedSymbols.join(', ')} not done`
        : 'rebalance failed';
  }
}
