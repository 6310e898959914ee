import type { Holding, Strategy } from '../../../../shared/domain/resources';
import type { RefreshFailure } from './book-query';
import type { RepositoryContext } from './context';

/** A cached strategy: the service's fields as received, plus when the app added and last synced it. */
export type StoredStrategy = Omit<Strategy, 'positions'> & {
  added_at: string;
  synced_at: string;
  /** The holdings, when asked for (get); absent in list(). */
  positions?: StoredHolding[];
};

export type StoredHolding = Holding & { synced_at: string };

interface StrategyRow extends Omit<StoredStrategy, 'is_liquidate_only' | 'positions'> {
  is_liquidate_only: 0 | 1;
}

const fromRow = ({
  profile_id: _p,
  ...r
}: StrategyRow & { profile_id?: string }): StoredStrategy => ({
  ...r,
  is_liquidate_only: r.is_liquidate_only === 1,
});

export type StrategiesRepository = ReturnType<typeof strategiesRepository>;

export function strategiesRepository({ db, now }: RepositoryContext) {
  const upsertStrategy = db.prepare(
    `INSERT INTO strategies (profile_id, id, name, description, fee_percent, is_liquidate_only,
       liquidate_only_reason, inserted_at, updated_at, added_at, synced_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, id) DO UPDATE SET
       name = excluded.name, description = excluded.description,
       fee_percent = excluded.fee_percent, is_liquidate_only = excluded.is_liquidate_only,
       liquidate_only_reason = excluded.liquidate_only_reason,
       inserted_at = excluded.inserted_at, updated_at = excluded.updated_at,
       synced_at = excluded.synced_at`,
  );
  const deleteHoldings = db.prepare(
    'DELETE FROM holdings WHERE profile_id = ? AND strategy_id = ?',
  );
  const insertHolding = db.prepare(
    `INSERT INTO holdings (profile_id, strategy_id, id, symbol, quantity, inserted_at, updated_at,
       synced_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectOne = db.prepare<[string, string], StrategyRow>(
    'SELECT * FROM strategies WHERE profile_id = ? AND id = ?',
  );
  const selectAll = db.prepare<[string], StrategyRow>(
    'SELECT * FROM strategies WHERE profile_id = ? ORDER BY name COLLATE NOCASE, id',
  );
  const selectHeld = db.prepare<[string, string], Holding>(
    `SELECT id, symbol, quantity, inserted_at, updated_at FROM holdings
     WHERE profile_id = ? AND strategy_id = ? ORDER BY rowid`,
  );
  const touchHoldings = db.prepare(
    'UPDATE holdings SET synced_at = ? WHERE profile_id = ? AND strategy_id = ?',
  );
  // The book's mark (migration 010): prepared on first use, a file below schema 10 has no table.
  let markBook: ReturnType<typeof db.prepare> | undefined;
  const markBookRow = (profileId: string, strategyId: string) =>
    (markBook ??= db.prepare(
      `INSERT INTO book_dirty SELECT @profileId, @strategyId WHERE NOT EXISTS
         (SELECT 1 FROM book_dirty WHERE profile_id = @profileId AND strategy_id = @strategyId)`,
    )).run({ profileId, strategyId });
  let bookSchema: boolean | undefined;
  const hasBook = () =>
    (bookSchema ??=
      db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'book_dirty'").get() !== undefined);
  // The strategy's last failed read (the book's "Refresh failed", migration 009 with book_dirty).
  let clearFailed: ReturnType<typeof db.prepare> | undefined;
  const clearReadFailure = (profileId: string, strategyId: string) => {
    if (!hasBook()) return;
    (clearFailed ??= db.prepare(
      'DELETE FROM book_refresh_failures WHERE profile_id = ? AND strategy_id = ?',
    )).run(profileId, strategyId);
  };
  let recordFailed: ReturnType<typeof db.prepare> | undefined;
  const selectName = db
    .prepare<[string, string], string>(
      'SELECT name FROM strategies WHERE profile_id = ? AND id = ?',
    )
    .pluck();
  const selectExists = db
    .prepare<[string, string], number>('SELECT 1 FROM strategies WHERE profile_id = ? AND id = ?')
    .pluck();
  const selectHoldings = db.prepare<[string, string], StoredHolding>(
    `SELECT id, symbol, quantity, inserted_at, updated_at, synced_at FROM holdings
     WHERE profile_id = ? AND strategy_id = ? ORDER BY rowid`,
  );
  const remove = db.prepare('DELETE FROM strategies WHERE profile_id = ? AND id = ?');
  const selectLastSynced = db
    .prepare<[], string | null>('SELECT max(synced_at) FROM strategies')
    .pluck();
  const selectOldestSynced = db
    .prepare<[], string | null>('SELECT min(synced_at) FROM strategies')
    .pluck();

  /**
   * Writes the strategy's rows in the caller's transaction; when the response carried positions,
   * they replace the holdings. Every read of a strategy is stored here, so its last failed read
   * ("Refresh failed") ends here too, in the same transaction as the answer that replaces it.
   * Returns whether the strategy was new here.
   */
  const writeRows = (profileId: string, strategy: Strategy, syncedAt: string): boolean => {
    const s = strategy;
    const isNew = selectExists.get(profileId, s.id) === undefined;
    if (!isNew) clearReadFailure(profileId, s.id);
    upsertStrategy.run(
      profileId,
      s.id,
      s.name,
      s.description,
      s.fee_percent,
      s.is_liquidate_only ? 1 : 0,
      s.liquidate_only_reason,
      s.inserted_at,
      s.updated_at,
      syncedAt,
      syncedAt,
    );
    if (!s.positions) return isNew;
    if (!isNew) {
      // A refresh that finds the same holdings (the common case) only notes when it saw them.
      if (sameHoldings(selectHeld.all(profileId, s.id), s.positions)) {
        touchHoldings.run(syncedAt, profileId, s.id);
        return false;
      }
      // Other holdings than before: the book works the strategy's row out again (a new
      // strategy's own insert marked it already).
      if (hasBook()) markBookRow(profileId, s.id);
      deleteHoldings.run(profileId, s.id);
    }
    for (const h of s.positions)
      insertHolding.run(
        profileId,
        s.id,
        h.id,
        h.symbol,
        h.quantity,
        h.inserted_at,
        h.updated_at,
        syncedAt,
      );
    return isNew;
  };
  /** Stores the strategy, whole or not at all (its own transaction, or a savepoint in one). */
  const upsert = db.transaction((profileId: string, strategy: Strategy, syncedAt: string) =>
    writeRows(profileId, strategy, syncedAt),
  );

  /**
   * Strategies read together (the book's queue), written in the caller's transaction, each whole:
   * no savepoint per strategy (one copies aside every page the strategy touches, most of the cost
   * of storing it), so a failure rolls the caller's whole group back. `each` runs after each
   * one's rows. Returns the strategies that were new here.
   */
  function recordReadTogether(
    profileId: string,
    strategies: readonly Strategy[],
    options: { syncedAt: string; each?: (strategy: Strategy) => void },
  ): Strategy[] {
    const added: Strategy[] = [];
    for (const s of strategies) {
      if (writeRows(profileId, s, options.syncedAt)) added.push(s);
      options.each?.(s);
    }
    return added;
  }

  return {
    upsert(profileId: string, strategy: Strategy, options: { syncedAt?: string } = {}): void {
      upsert(profileId, strategy, options.syncedAt ?? now());
    },
    /** The strategy's name, or null when the app does not hold it. */
    nameOf(profileId: string, strategyId: string): string | null {
      return selectName.get(profileId, strategyId) ?? null;
    },
    /** Whether the app holds the strategy (without reading it). */
    has(profileId: string, strategyId: string): boolean {
      return selectExists.get(profileId, strategyId) !== undefined;
    },
    /**
     * A strategy read from the service, stored whole with its holdings (its own transaction, or
     * a savepoint in the caller's), its "Refresh failed" ended: every read of a strategy is
     * recorded here, as a version read is by the versions repository (`recordRead`). Returns
     * whether it was new here (the domain writes its strategy-added entry: strategies/sync.ts).
     */
    recordRead(profileId: string, strategy: Strategy, options: { syncedAt: string }): boolean {
      return upsert(profileId, strategy, options.syncedAt);
    },
    recordReadTogether,
    /**
     * A read of the strategy failed (not one the manager cancelled): its "Refresh failed", the
     * last one kept, until a later read stores an answer (`writeRows`). Nothing for a strategy
     * the app does not hold.
     */
    recordReadFailure(profileId: string, strategyId: string, failure: RefreshFailure): void {
      (recordFailed ??= db.prepare(
        `INSERT INTO book_refresh_failures (profile_id, strategy_id, failed_at, kind, message, status)
         SELECT @profileId, @strategyId, @at, @kind, @message, @status
         WHERE EXISTS (SELECT 1 FROM strategies WHERE profile_id = @profileId AND id = @strategyId)
         ON CONFLICT (profile_id, strategy_id) DO UPDATE SET failed_at = excluded.failed_at,
           kind = excluded.kind, message = excluded.message, status = excluded.status`,
      )).run({ profileId, strategyId, ...failure });
    },
    /** The strategy with its holdings, or null when the app does not have it. */
    get(profileId: string, strategyId: string): StoredStrategy | null {
      const row = selectOne.get(profileId, strategyId);
      if (!row) return null;
      return { ...fromRow(row), positions: selectHoldings.all(profileId, strategyId) };
    },
    list(profileId: string): StoredStrategy[] {
      return selectAll.all(profileId).map(fromRow);
    },
    /** The newest sync of any strategy the app holds: the status bar's "last sync". */
    lastSyncedAt(): string | null {
      return selectLastSynced.get() ?? null;
    },
    /**
     * The sync of the strategy read longest ago: the status bar says it beside the newest, so a
     * refresh that left strategies unread (cancelled, stopped) never reads as all synced.
     */
    oldestSyncedAt(): string | null {
      return selectOldestSynced.get() ?? null;
    },
    holdings(profileId: string, strategyId: string): StoredHolding[] {
      return selectHoldings.all(profileId, strategyId);
    },
    /** Removes the strategy and, by cascade, its holdings, versions, orders and drafts. */
    remove(profileId: string, strategyId: string): boolean {
      return remove.run(profileId, strategyId).changes > 0;
    },
  };
}

/** The same holding lines, field by field, in the same order. */
function sameHoldings(stored: readonly Holding[], incoming: readonly Holding[]): boolean {
  if (stored.length !== incoming.length) return false;
  for (let i = 0; i < stored.length; i++) {
    const a = stored[i]!;
    const b = incoming[i]!;
    if (
      a.id !== b.id ||
      a.symbol !== b.symbol ||
      a.quantity !== b.quantity ||
      a.inserted_at !== b.inserted_at ||
      a.updated_at !== b.updated_at
    )
      return false;
  }
  return true;
}
