import { BOOK_SORTS, type BookSort } from '../../../shared/book/flags';
import { isZeroString } from '../../../shared/draft/exact';
import type { BookOrderKeys, BookRowRecord, Store } from '../store';
import { knownTargetWithCheck } from '../strategies/targets';

/**
 * Works out the book's row of a strategy from the cache, by the rules the rest of the app uses:
 * the known target is the latest executed version known here (as the Overview and the
 * confirmation take it), and "changed elsewhere" is the same target check. Rows are worked out
 * when their strategy is marked (migration 010's triggers), never on each read of the book.
 */

/** Orders that ended without a fill: the last version's flag. */
const UNFILLED = new Set(['FAILED', 'IGNORED']);

export function workOutRow(
  store: Store,
  profileId: string,
  strategyId: string,
  at: string,
): BookRowRecord | null {
  const strategy = store.strategies.get(profileId, strategyId);
  if (!strategy) return null;
  const holdings = strategy.positions ?? [];
  const { known: last, target, check } = knownTargetWithCheck(store, profileId, strategy, holdings);
  const versions = store.versions.listForStrategy(profileId, strategyId);
  const failed =
    last !== null &&
    (last.status === 'FAILED' || (last.orders ?? []).some((o) => UNFILLED.has(o.status)));
  const changedElsewhere = check !== null && !check.fits;
  const held = new Set<string>();
  for (const h of holdings) if (!isZeroString(h.quantity)) held.add(h.symbol);
  return {
    profile_id: profileId,
    strategy_id: strategyId,
    name: strategy.name,
    synced_at: strategy.synced_at,
    holdings_count: holdings.length,
    held_symbols: [...held].sort(),
    target_state: target === null ? 'unknown' : changedElsewhere ? 'changed-elsewhere' : 'known',
    target_version_id: target?.versionId ?? null,
    target_executed_at: target?.executedAt ?? null,
    changed_symbols: check ? [...new Set([...check.heldNotInTarget, ...check.targetNotHeld])] : [],
    last_version_id: last?.id ?? null,
    last_version_status: last?.status ?? null,
    last_version_at: last?.executed_at ?? null,
    running: store.versions.listActive({ profileId, strategyId }).length > 0,
    liquidate_only_reason: strategy.liquidate_only_reason,
    flag_failed: failed,
    flag_liquidate_only: strategy.is_liquidate_only,
    flag_unexecuted: versions.some((v) => v.executed_at === null),
    flag_attention: store.book.hasUnknownExecution(profileId, strategyId),
    flag_changed_elsewhere: changedElsewhere,
    computed_at: at,
  };
}

/** Rows worked out again: which, and the sorts under which any of them may have changed place. */
export interface WorkedOut {
  strategyIds: string[];
  places: Set<BookSort>;
}

/**
 * Works out again every marked row of a profile (or of every profile), in one transaction, so
 * the book is read whole and consistent; of a profile, only the first `limit` when one is given.
 * Marks of strategies no longer held are dropped. Returns the strategies whose rows were worked
 * out, and the sorts whose keys moved among them (`placesMoved`): a screen showing the book in
 * another order has nothing to read again.
 */
export function bringUpToDate(
  store: Store,
  at: string,
  profileId?: string,
  limit?: number,
): WorkedOut {
  const places = new Set<BookSort>();
  if (profileId !== undefined && !store.book.hasDirty(profileId))
    return { strategyIds: [], places };
  const strategyIds = store.transaction(() => {
    const done: string[] = [];
    for (const mark of store.book.dirty(profileId, limit)) {
      const row = workOutRow(store, mark.profile_id, mark.strategy_id, at);
      if (row) {
        placesMoved(store.book.orderKeys(mark.profile_id, mark.strategy_id), row, places);
        store.book.putRow(row);
        done.push(mark.strategy_id);
      } else store.book.clearDirty(mark.profile_id, mark.strategy_id);
    }
    return done;
  });
  return { strategyIds, places };
}

/**
 * Works out the first `limit` marked rows of a profile; `more` when marks are left. For work in
 * the background (the announcer's timer): each call is short, and whoever reads the book brings
 * the rest up to date first (`bringUpToDate`).
 */
export function workOutSome(
  store: Store,
  at: string,
  profileId: string,
  limit: number,
): WorkedOut & { more: boolean } {
  const worked = bringUpToDate(store, at, profileId, limit);
  return { ...worked, more: store.book.hasDirty(profileId) };
}

/**
 * The sorts under which a row worked out again may have changed place: every one for a new row or
 * a new name (the name orders ties in each); the flags' always (a failed read, not in the row,
 * counts among them); each other where its key moved. Tags and models are not in the row: their
 * changes are told by their own events.
 */
function placesMoved(before: BookOrderKeys | undefined, row: BookRowRecord, into: Set<BookSort>) {
  if (!before || before.name !== row.name) {
    for (const sort of BOOK_SORTS) into.add(sort);
    return;
  }
  into.add('flags');
  if (
    before.target_state !== row.target_state ||
    before.target_executed_at !== row.target_executed_at
  )
    into.add('target');
  if (before.holdings_count !== row.holdings_count) into.add('holdings');
  if (before.last_version_status !== row.last_version_status) into.add('last-version-status');
  if (before.last_version_at !== row.last_version_at) into.add('last-version-date');
  if (before.synced_at !== row.synced_at) into.add('synced');
}
