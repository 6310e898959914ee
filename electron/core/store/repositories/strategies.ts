import type { Holding, Strategy } from '../../../../shared/domain/resources';
import type { ActivityRepository } from './activity';
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
  const selectHoldings = db.prepare<[string, string], StoredHolding>(
    `SELECT id, symbol, quantity, inserted_at, updated_at, synced_at FROM holdings
     WHERE profile_id = ? AND strategy_id = ? ORDER BY rowid`,
  );
  const remove = db.prepare('DELETE FROM strategies WHERE profile_id = ? AND id = ?');
  const selectLastSynced = db
    .prepare<[], string | null>('SELECT max(synced_at) FROM strategies')
    .pluck();

  /** Stores the strategy; when the response carried positions, they replace the holdings. */
  const upsert = db.transaction((profileId: string, strategy: Strategy, syncedAt: string): void => {
    const s = strategy;
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
    if (!s.positions) return;
    deleteHoldings.run(profileId, s.id);
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
  });

  /**
   * Runs `store` (the strategy's rows written) in one transaction with its activity entry: the
   * first time a strategy is stored (the manager added it), that is the strategy-added entry; a
   * refresh of one already here records nothing.
   */
  function recordStored(profileId: string, strategyId: string, store: () => void): void {
    recording.activity.record((append) => {
      const known = selectOne.get(profileId, strategyId) !== undefined;
      store();
      const stored = selectOne.get(profileId, strategyId);
      if (known || !stored) return;
      append({
        profileId,
        kind: 'strategy-added',
        strategyId,
        payload: {
          profileName: recording.profileName(profileId),
          strategyName: stored.name,
          isLiquidateOnly: stored.is_liquidate_only === 1,
          holdings: selectHoldings
            .all(profileId, strategyId)
            .map((h) => ({ symbol: h.symbol, quantity: h.quantity })),
        },
      });
    });
  }

  return {
    upsert(profileId: string, strategy: Strategy, options: { syncedAt?: string } = {}): void {
      upsert(profileId, strategy, options.syncedAt ?? now());
    },
    /**
     * A strategy read from the service, stored with its holdings (and, the first time, its
     * strategy-added entry): every read of a strategy is recorded here, as a version read is by
     * the versions repository (`recordRead`).
     */
    recordRead(profileId: string, strategy: Strategy, options: { syncedAt: string }): void {
      recordStored(profileId, strategy.id, () => upsert(profileId, strategy, options.syncedAt));
    },
    recordStored,
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
    holdings(profileId: string, strategyId: string): StoredHolding[] {
      return selectHoldings.all(profileId, strategyId);
    },
    /** Removes the strategy and, by cascade, its holdings, versions, orders and drafts. */
    remove(profileId: string, strategyId: string): boolean {
      return remove.run(profileId, strategyId).changes > 0;
    },
  };
}
