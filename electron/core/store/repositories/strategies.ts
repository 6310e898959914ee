import type { Holding, Strategy } from '../../../../shared/domain/resources';
import type { ActivityRepository, NewActivityEntry } from './activity';
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

/** What storing a read records besides: the activity log, and the profile's name it names. */
export interface StrategyReadRecording {
  activity: Pick<ActivityRepository, 'record'>;
  profileName(profileId: string): string;
}

export function strategiesRepository(
  { db, now }: RepositoryContext,
  recording: StrategyReadRecording,
) {
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
  const upsert = db.transaction((profileId: string, strategy: Strategy, syncedAt: string): void => {
    writeRows(profileId, strategy, syncedAt);
  });

  /**
   * A refresh of a strategy the app holds already: `store` in a plain IMMEDIATE transaction (no
   * activity entry to write, so no fsync of the WAL: a fresh read is the service's to give again).
   * False, having written nothing, when the strategy is not here (yet): the caller records it.
   */
  const refreshHeld = db.transaction((profileId: string, strategyId: string, store: () => void) => {
    if (selectExists.get(profileId, strategyId) === undefined) return false;
    store();
    return true;
  });

  /**
   * Runs `store` (the strategy's rows written) in one transaction with its activity entry: the
   * first time a strategy is stored (the manager added it), that is the strategy-added entry; a
   * refresh of one already here records nothing, and commits without the activity log's fsync
   * (the check and the write in one transaction, so a strategy removed meanwhile is added again
   * with its entry).
   */
  function recordStored(
    profileId: string,
    strategyId: string,
    store: () => void,
    /** What `store` writes, when the caller has it in hand (no read back: the book adds hundreds). */
    stored?: Pick<Strategy, 'name' | 'is_liquidate_only' | 'positions'>,
  ): void {
    if (
      !db.inTransaction &&
      selectExists.get(profileId, strategyId) !== undefined &&
      refreshHeld.immediate(profileId, strategyId, store)
    )
      return;
    recording.activity.record((append) => {
      const known = selectExists.get(profileId, strategyId) !== undefined;
      store();
      if (known) return;
      const added = stored?.positions
        ? {
            name: stored.name,
            liquidateOnly: stored.is_liquidate_only,
            holdings: stored.positions,
          }
        : readAdded(profileId, strategyId);
      if (!added) return;
      append(addedEntry(profileId, strategyId, added, recording.profileName(profileId)));
    });
  }

  /**
   * Strategies read together (the book's queue), stored in one transaction, each whole, each one
   * new here with its strategy-added entry; `each` runs after each one's rows. No savepoint per
   * strategy (one copies aside every page the strategy touches, most of the cost of storing it):
   * a failure rolls the whole group back. With an entry to write, the transaction is the activity
   * log's, committed without its own fsync: the caller waits for `store.durable()` before telling
   * anyone they are added. Returns whether it wrote any entry.
   */
  function recordReadTogether(
    profileId: string,
    strategies: readonly Strategy[],
    options: { syncedAt: string; each?: (strategy: Strategy) => void },
  ): boolean {
    const anyNew = strategies.some((s) => selectExists.get(profileId, s.id) === undefined);
    const write = (append?: (entry: NewActivityEntry) => unknown) => {
      const profileName = append ? recording.profileName(profileId) : '';
      for (const s of strategies) {
        const isNew = writeRows(profileId, s, options.syncedAt);
        options.each?.(s);
        if (!isNew) continue;
        // Nothing ran between the check above and here (one connection, no await): no surprise.
        if (!append)
          throw new Error(`Strategy ${s.id} is new here: it is recorded with its entry.`);
        const added = s.positions
          ? { name: s.name, liquidateOnly: s.is_liquidate_only, holdings: s.positions }
          : readAdded(profileId, s.id);
        if (added) append(addedEntry(profileId, s.id, added, profileName));
      }
    };
    if (anyNew) recording.activity.record(write, { fsync: false });
    else db.transaction(() => write()).immediate();
    return anyNew;
  }

  function readAdded(profileId: string, strategyId: string) {
    const row = selectOne.get(profileId, strategyId);
    if (!row) return null;
    return {
      name: row.name,
      liquidateOnly: row.is_liquidate_only === 1,
      holdings: selectHoldings.all(profileId, strategyId),
    };
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
     * A strategy read from the service, stored with its holdings (and, the first time, its
     * strategy-added entry): every read of a strategy is recorded here, as a version read is by
     * the versions repository (`recordRead`).
     */
    recordRead(profileId: string, strategy: Strategy, options: { syncedAt: string }): void {
      recordStored(
        profileId,
        strategy.id,
        () => upsert(profileId, strategy, options.syncedAt),
        strategy,
      );
    },
    recordStored,
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

/** The strategy-added entry: what the app holds of the strategy as it was added. */
function addedEntry(
  profileId: string,
  strategyId: string,
  added: {
    name: string;
    liquidateOnly: boolean;
    holdings: readonly Pick<Holding, 'symbol' | 'quantity'>[];
  },
  profileName: string,
): NewActivityEntry {
  return {
    profileId,
    kind: 'strategy-added',
    strategyId,
    payload: {
      profileName,
      strategyName: added.name,
      isLiquidateOnly: added.liquidateOnly,
      holdings: added.holdings.map((h) => ({ symbol: h.symbol, quantity: h.quantity })),
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
