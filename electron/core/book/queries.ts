import type {
  BookCounts,
  BookPage,
  BookQuery,
  BookRow,
  BookSelection,
  ExposureView,
} from '../../../shared/book/views';
import { BOOK_SORTS, type BookSort } from '../../../shared/book/flags';
import type { DeskEvent, DeskEventOf } from '../../../shared/contract';
import type { VersionStatus } from '../../../shared/domain/constants';
import { BOOK_SYNC } from '../../../shared/models/sync';
import { followerOf } from '../models/views';
import type { BookFilter, BookOrder, BookRowRead, Store } from '../store';
import { BookAnnouncer } from './announce';
import { exposureOf } from './exposure';
import { bringUpToDate, workOutSome, type WorkedOut } from './rows';
import type { HeldBookSettings } from './settings';

export interface BookQueriesDeps {
  store: Store;
  settings: HeldBookSettings;
  now(): string;
  emit(event: DeskEvent): void;
  /** Where an announcement that could not be made is told (the desk's log). */
  onAnnounceFault?(profileId: string, error: unknown): void;
}

/**
 * The book as the contract carries it (docs/book.md): its rows with their model column, its
 * counts, pages, selections and exposure, read from `book_rows` once the rows the store's triggers
 * marked are worked out again (rows.ts); and what an announcement tells of rows (`rowsChanged`),
 * composed here in one call. The rows worked out by any read are announced (announce.ts).
 */
export class BookQueries {
  readonly announcer: BookAnnouncer;

  constructor(private readonly deps: BookQueriesDeps) {
    this.announcer = new BookAnnouncer(this, deps.emit, deps.onAnnounceFault);
  }

  /** Strategies last read before this instant are flagged as not synced. */
  staleBefore(): string {
    const hours = this.deps.settings.current.staleAfterHours;
    return new Date(Date.parse(this.deps.now()) - hours * 3_600_000).toISOString();
  }

  /**
   * Brings the profile's rows up to date with what the cache holds now. The rows that changed
   * are announced with the next announcement, whatever read brought them up to date.
   */
  upToDate(profileId: string): void {
    const { strategyIds, places } = bringUpToDate(this.deps.store, this.deps.now(), profileId);
    if (strategyIds.length > 0) this.announcer.rowsMoved(profileId, strategyIds, places);
  }

  counts(profileId: string): BookCounts {
    this.upToDate(profileId);
    return this.countsNow(profileId);
  }

  page(profileId: string, query: BookQuery, offset: number, limit: number): BookPage {
    const filter = this.filter(profileId, query);
    const { store } = this.deps;
    return {
      total: store.book.count(filter),
      offset,
      rows: this.withModels(
        profileId,
        store.book.page(filter, orderOf(query), offset, limit).map(bookRowView),
      ),
    };
  }

  /** The filter of a query, the rows brought up to date first (a page, an export). */
  filter(profileId: string, query: BookQuery): BookFilter {
    this.upToDate(profileId);
    return filterOf(profileId, query, this.staleBefore());
  }

  /** The strategies a selection names, in the book's order (those the app holds). */
  selected(profileId: string, selection: BookSelection): string[] {
    const base = this.filter(profileId, {
      search: '',
      flags: [],
      tag: null,
      sort: 'name',
      descending: false,
    });
    const { store } = this.deps;
    switch (selection.kind) {
      case 'all':
        return store.book.ids(base);
      case 'ids':
        return store.book.ids({ ...base, strategyIds: selection.strategyIds });
      case 'tag':
        return store.book.ids({ ...base, tag: selection.tag });
      case 'query':
        return store.book.ids(
          filterOf(profileId, selection.query, base.staleBefore),
          orderOf(selection.query),
        );
    }
  }

  changeTags(
    profileId: string,
    selection: BookSelection,
    add: readonly string[],
    remove: readonly string[],
  ): { changed: number; counts: BookCounts } {
    const ids = this.selected(profileId, selection);
    const { store, now } = this.deps;
    const changed = store.transaction(() =>
      store.book.changeTags(profileId, ids, add, remove, now()),
    );
    return { changed, counts: this.counts(profileId) };
  }

  exposure(profileId: string, symbol: string): ExposureView {
    this.upToDate(profileId);
    return exposureOf(this.deps.store, profileId, symbol, this.staleBefore());
  }

  /** The strategies of the profile last read before `before` (the automatic refresh's). */
  dueBefore(profileId: string, before: string): string[] {
    this.upToDate(profileId);
    return this.deps.store.book.ids({
      profileId,
      search: '',
      flags: ['stale'],
      tag: null,
      staleBefore: before,
    });
  }

  /**
   * What an announcement tells of the rows: those that moved (`moved`, which the rows worked out
   * now join) with the book's counts and the sorts they may have moved in (`places`, which theirs
   * join); null when none moved and none was added.
   */
  rowsChanged(
    profileId: string,
    moved: Set<string>,
    places: Set<BookSort>,
    added: boolean,
  ): DeskEventOf<'book-rows-changed'> | null {
    const { store } = this.deps;
    const workedOut = bringUpToDate(store, this.deps.now(), profileId);
    for (const id of workedOut.strategyIds) moved.add(id);
    for (const sort of workedOut.places) places.add(sort);
    if (moved.size === 0 && !added) return null;
    return {
      type: 'book-rows-changed',
      profileId,
      rows: this.withModels(
        profileId,
        store.book.rows(profileId, [...moved], this.staleBefore()).map(bookRowView),
      ),
      counts: this.countsNow(profileId),
      placesMoved: BOOK_SORTS.filter((sort) => places.has(sort)),
    };
  }

  workOutSome(profileId: string, limit: number): WorkedOut & { more: boolean } {
    return workOutSome(this.deps.store, this.deps.now(), profileId, limit);
  }

  private countsNow(profileId: string): BookCounts {
    const { store } = this.deps;
    return {
      ...store.book.counts(profileId, this.staleBefore()),
      tags: store.book.tagCounts(profileId),
    };
  }

  /** Rows with their model column (as modelsOf tells it). */
  private withModels(profileId: string, rows: BookRow[]): BookRow[] {
    if (rows.length === 0) return rows;
    const models = modelsOf(
      this.deps.store,
      profileId,
      rows.map((r) => r.strategyId),
    );
    if (models.size === 0) return rows;
    return rows.map((row) => {
      const model = models.get(row.strategyId);
      return model ? { ...row, model } : row;
    });
  }
}

type BookModel = NonNullable<BookRow['model']>;

/**
 * The book's model column: the model each of `strategyIds` follows and its sync state, by strategy
 * (none: follows none), worked out as the Models screen's followers are (models/views.ts) at read
 * time, since a saved revision or an assignment changes it without touching the strategy. One
 * query finds the profile's assignments; only the rows that follow a model cost more.
 */
export function modelsOf(
  store: Store,
  profileId: string,
  strategyIds: readonly string[],
): Map<string, BookModel> {
  const models = new Map<string, BookModel>();
  if (strategyIds.length === 0) return models;
  const assigned = new Set(store.models.assignmentsOf(profileId).map((a) => a.strategyId));
  if (assigned.size === 0) return models;
  for (const strategyId of strategyIds) {
    if (!assigned.has(strategyId)) continue;
    const follower = followerOf(store, profileId, strategyId);
    if (!follower) continue;
    models.set(strategyId, {
      id: follower.modelId,
      name: follower.modelName,
      sync: BOOK_SYNC[follower.sync.state],
    });
  }
  return models;
}

/** The book's stored rows as the contract carries them (the model column filled by withModels). */
function bookRowView(row: BookRowRead): BookRow {
  return {
    strategyId: row.strategy_id,
    name: row.name,
    tags: row.tags,
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

function filterOf(profileId: string, query: BookQuery, staleBefore: string): BookFilter {
  return { profileId, search: query.search, flags: query.flags, tag: query.tag, staleBefore };
}

export function orderOf(query: BookQuery): BookOrder {
  return { sort: query.sort, descending: query.descending };
}
