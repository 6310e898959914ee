import type { Statement } from 'better-sqlite3';
import type { BookFlag } from '../../../../shared/book/flags';
import {
  type BookCountsRecord,
  type BookRowRead,
  type BookRowRecord,
  type BookFilter,
  type BookOrder,
  ANY_FLAG,
  FLAG_ORDER,
  FLAG_SQL,
  FROM,
  ROW_COLUMNS,
  fromStored,
  orderBy,
  where,
  type StoredBookRow,
} from './book-query';
import type { RepositoryContext } from './context';

/**
 * The book's tables (migration 010): a derived row per strategy, the marks of rows to work out
 * again, the last failed read of each strategy, and the manager's tags. Filters, counts and
 * sorting are SQL over `book_rows`; nothing here works out a row (electron/core/book does).
 */

export type {
  BookCountsRecord,
  BookFilter,
  BookOrder,
  BookRowRead,
  BookRowRecord,
  RefreshFailure,
} from './book-query';

/** The columns of a stored row the book's sorts read. */
export type BookOrderKeys = Pick<
  BookRowRecord,
  | 'name'
  | 'target_state'
  | 'target_executed_at'
  | 'holdings_count'
  | 'last_version_status'
  | 'last_version_at'
  | 'synced_at'
>;

export type BookRepository = ReturnType<typeof bookRepository>;

export function bookRepository({ db }: RepositoryContext) {
  // Prepared on first use: a file below schema 10 (tests of older migrations) has no tables.
  const cache = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };

  const upsertRow = () =>
    prepared(`INSERT INTO book_rows (profile_id, strategy_id, name, synced_at, holdings_count,
        held_symbols, target_state, target_version_id, target_executed_at, changed_symbols,
        last_version_id, last_version_status, last_version_at, running, liquidate_only_reason,
        flag_failed, flag_liquidate_only, flag_unexecuted, flag_attention, flag_changed_elsewhere,
        computed_at)
      VALUES (@profile_id, @strategy_id, @name, @synced_at, @holdings_count, @held_symbols,
        @target_state, @target_version_id, @target_executed_at, @changed_symbols,
        @last_version_id, @last_version_status, @last_version_at, @running,
        @liquidate_only_reason, @flag_failed, @flag_liquidate_only, @flag_unexecuted,
        @flag_attention, @flag_changed_elsewhere, @computed_at)
      ON CONFLICT (profile_id, strategy_id) DO UPDATE SET
        name = excluded.name, synced_at = excluded.synced_at,
        holdings_count = excluded.holdings_count, held_symbols = excluded.held_symbols,
        target_state = excluded.target_state, target_version_id = excluded.target_version_id,
        target_executed_at = excluded.target_executed_at,
        changed_symbols = excluded.changed_symbols, last_version_id = excluded.last_version_id,
        last_version_status = excluded.last_version_status,
        last_version_at = excluded.last_version_at, running = excluded.running,
        liquidate_only_reason = excluded.liquidate_only_reason,
        flag_failed = excluded.flag_failed, flag_liquidate_only = excluded.flag_liquidate_only,
        flag_unexecuted = excluded.flag_unexecuted, flag_attention = excluded.flag_attention,
        flag_changed_elsewhere = excluded.flag_changed_elsewhere,
        computed_at = excluded.computed_at`);

  return {
    /**
     * Strategies whose rows are to be worked out again (a profile's, or every profile's); of a
     * profile, the first `limit` of them in strategy order (all when none is given).
     */
    dirty(profileId?: string, limit = -1): { profile_id: string; strategy_id: string }[] {
      if (profileId === undefined)
        return prepared('SELECT profile_id, strategy_id FROM book_dirty').all() as {
          profile_id: string;
          strategy_id: string;
        }[];
      return prepared(
        'SELECT profile_id, strategy_id FROM book_dirty WHERE profile_id = ? ORDER BY strategy_id LIMIT ?',
      ).all(profileId, limit) as { profile_id: string; strategy_id: string }[];
    },
    hasDirty(profileId: string): boolean {
      return (
        prepared('SELECT 1 FROM book_dirty WHERE profile_id = ? LIMIT 1').get(profileId) !==
        undefined
      );
    },
    /** What the book's order reads of a stored row (before it is worked out again), if any. */
    orderKeys(profileId: string, strategyId: string): BookOrderKeys | undefined {
      return prepared(
        `SELECT name, target_state, target_executed_at, holdings_count, last_version_status,
           last_version_at, synced_at FROM book_rows WHERE profile_id = ? AND strategy_id = ?`,
      ).get(profileId, strategyId) as BookOrderKeys | undefined;
    },
    /** Stores a worked-out row and clears its mark (the caller holds the transaction). */
    putRow(row: BookRowRecord): void {
      upsertRow().run({
        ...row,
        held_symbols: JSON.stringify(row.held_symbols),
        changed_symbols: JSON.stringify(row.changed_symbols),
        running: row.running ? 1 : 0,
        flag_failed: row.flag_failed ? 1 : 0,
        flag_liquidate_only: row.flag_liquidate_only ? 1 : 0,
        flag_unexecuted: row.flag_unexecuted ? 1 : 0,
        flag_attention: row.flag_attention ? 1 : 0,
        flag_changed_elsewhere: row.flag_changed_elsewhere ? 1 : 0,
      });
      this.clearDirty(row.profile_id, row.strategy_id);
    },
    clearDirty(profileId: string, strategyId: string): void {
      prepared('DELETE FROM book_dirty WHERE profile_id = ? AND strategy_id = ?').run(
        profileId,
        strategyId,
      );
    },
    /** Whether the strategy has an execution whose outcome is unknown. */
    hasUnknownExecution(profileId: string, strategyId: string): boolean {
      return (
        prepared(
          `SELECT 1 FROM execution_journal
           WHERE profile_id = ? AND strategy_id = ? AND state = 'unknown' LIMIT 1`,
        ).get(profileId, strategyId) !== undefined
      );
    },

    /** Rows [offset, offset + limit) of the filtered book in the given order. */
    page(filter: BookFilter, order: BookOrder, offset: number, limit: number): BookRowRead[] {
      const w = where(filter);
      const rows = prepared(
        `SELECT ${ROW_COLUMNS} ${FROM} WHERE ${w.sql} ORDER BY ${orderBy(order)}
         LIMIT @limit OFFSET @offset`,
      ).all({ ...w.params, limit, offset }) as StoredBookRow[];
      return rows.map(fromStored);
    },
    /** The rows of these strategies (any order), as the book shows them now. */
    rows(profileId: string, strategyIds: readonly string[], staleBefore: string): BookRowRead[] {
      if (strategyIds.length === 0) return [];
      const filter = { profileId, search: '', flags: [], tag: null, staleBefore, strategyIds };
      return this.page(filter, { sort: 'name', descending: false }, 0, strategyIds.length);
    },
    count(filter: BookFilter): number {
      const w = where(filter);
      return (
        prepared(`SELECT count(*) AS n ${FROM} WHERE ${w.sql}`).get(w.params) as { n: number }
      ).n;
    },
    /** The ids of the filtered book, in the given order. */
    ids(filter: BookFilter, order: BookOrder = { sort: 'name', descending: false }): string[] {
      const w = where(filter);
      return prepared(`SELECT b.strategy_id ${FROM} WHERE ${w.sql} ORDER BY ${orderBy(order)}`)
        .pluck()
        .all(w.params) as string[];
    },
    /** The whole book's counts per flag, in one pass over its rows. */
    counts(profileId: string, staleBefore: string): BookCountsRecord {
      const sums = FLAG_ORDER.map((f, i) => `coalesce(sum(${FLAG_SQL[f]}), 0) AS f${i}`);
      const row = prepared(
        `SELECT count(*) AS strategies, coalesce(sum(${ANY_FLAG}), 0) AS flagged, ${sums.join(', ')}
         ${FROM} WHERE b.profile_id = @profileId`,
      ).get({ profileId, staleBefore }) as Record<string, number>;
      return {
        strategies: row.strategies!,
        flagged: row.flagged!,
        flags: Object.fromEntries(FLAG_ORDER.map((f, i) => [f, row[`f${i}`]!])) as Record<
          BookFlag,
          number
        >,
      };
    },

    /** Every tag of the profile with its number of strategies, by name. */
    tagCounts(profileId: string): { tag: string; count: number }[] {
      return prepared(
        `SELECT tag, count(*) AS count FROM strategy_tags WHERE profile_id = ?
         GROUP BY tag ORDER BY tag COLLATE NOCASE, tag`,
      ).all(profileId) as { tag: string; count: number }[];
    },
    /** Adds and removes tags on strategies the app holds; returns how many rows changed. */
    changeTags(
      profileId: string,
      strategyIds: readonly string[],
      add: readonly string[],
      remove: readonly string[],
      at: string,
    ): number {
      const insert = prepared(
        `INSERT OR IGNORE INTO strategy_tags (profile_id, strategy_id, tag, added_at)
         SELECT ?, id, ?, ? FROM strategies WHERE profile_id = ? AND id = ?`,
      );
      const drop = prepared(
        'DELETE FROM strategy_tags WHERE profile_id = ? AND strategy_id = ? AND tag = ?',
      );
      let changed = 0;
      for (const strategyId of strategyIds) {
        for (const tag of remove) changed += drop.run(profileId, strategyId, tag).changes;
        for (const tag of add)
          changed += insert.run(profileId, tag, at, profileId, strategyId).changes;
      }
      return changed;
    },

    /** Strategies whose target is not known here (they may target any symbol). */
    countUnknownTargets(profileId: string): number {
      return (
        prepared(
          `SELECT count(*) AS n FROM book_rows WHERE profile_id = ? AND target_state = 'unknown'`,
        ).get(profileId) as { n: number }
      ).n;
    },
    /** The holdings of one symbol in the profile, by strategy (the index on symbol). */
    holdersOf(profileId: string, symbol: string): { strategy_id: string; quantity: string }[] {
      return prepared(
        `SELECT strategy_id, quantity FROM holdings WHERE profile_id = ? AND symbol = ?
         ORDER BY strategy_id, rowid`,
      ).all(profileId, symbol) as { strategy_id: string; quantity: string }[];
    },
    /** The weight of a symbol in each strategy's known target. */
    targetWeightsOf(profileId: string, symbol: string): { strategy_id: string; weight: string }[] {
      return prepared(
        `SELECT b.strategy_id, p.weight FROM book_rows b
         JOIN version_positions p ON p.profile_id = b.profile_id AND p.version_id = b.target_version_id
         WHERE b.profile_id = ? AND p.symbol = ? ORDER BY b.strategy_id, p.rowid`,
      ).all(profileId, symbol) as { strategy_id: string; weight: string }[];
    },
    /** The known target's weight of every symbol of these strategies. */
    targetsOf(
      profileId: string,
      strategyIds: readonly string[],
    ): { strategy_id: string; symbol: string; weight: string }[] {
      return prepared(
        `SELECT b.strategy_id, p.symbol, p.weight FROM book_rows b
         JOIN version_positions p ON p.profile_id = b.profile_id AND p.version_id = b.target_version_id
         WHERE b.profile_id = @profileId AND b.strategy_id IN (SELECT value FROM json_each(@ids))
         ORDER BY b.strategy_id, p.rowid`,
      ).all({ profileId, ids: JSON.stringify(strategyIds) }) as {
        strategy_id: string;
        symbol: string;
        weight: string;
      }[];
    },
    /** The holdings of these strategies, in each strategy's order. */
    holdingsOf(
      profileId: string,
      strategyIds: readonly string[],
    ): { strategy_id: string; symbol: string; quantity: string }[] {
      return prepared(
        `SELECT strategy_id, symbol, quantity FROM holdings
         WHERE profile_id = @profileId AND strategy_id IN (SELECT value FROM json_each(@ids))
         ORDER BY strategy_id, rowid`,
      ).all({ profileId, ids: JSON.stringify(strategyIds) }) as {
        strategy_id: string;
        symbol: string;
        quantity: string;
      }[];
    },
  };
}
