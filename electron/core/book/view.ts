import type { BookQuery, BookRow } from '../../../shared/book/views';
import type { VersionStatus } from '../../../shared/domain/constants';
import type { BookFilter, BookOrder, BookRowRead } from '../store';

/** The book's stored rows as the contract carries them. */

export function bookRowView(row: BookRowRead): BookRow {
  return {
    strategyId: row.strategy_id,
    name: row.name,
    tags: row.tags,
    // Filled for the rows read (models.ts): an assignment changes it, not the strategy.
    model: null,
    target: {
      state: row.target_state,
      versionId: row.target_version_id,
      executedAt: row.target_executed_at,
      symbols: row.changed_symbols,
    },
    holdingsCount: row.holdings_count,
    heldSymbols: row.held_symbols,
    lastVersion:
      row.last_version_id === null
        ? null
        : {
            id: row.last_version_id,
            status: row.last_version_status as VersionStatus | null,
            executedAt: row.last_version_at,
          },
    running: row.running,
    liquidateOnlyReason: row.liquidate_only_reason,
    flags: row.flags,
    refreshFailure: row.failure,
    syncedAt: row.synced_at,
  };
}

export function filterOf(profileId: string, query: BookQuery, staleBefore: string): BookFilter {
  return { profileId, search: query.search, flags: query.flags, tag: query.tag, staleBefore };
}

export function orderOf(query: BookQuery): BookOrder {
  return { sort: query.sort, descending: query.descending };
}
