import type { Order, Version, VersionPosition } from '../../../../shared/domain/resources';
import type { RepositoryContext } from './context';

/** 'created': executed from this app; 'imported': added by id. Kept from the first store. */
export type VersionOrigin = 'created' | 'imported';

/** A cached version: the service's fields as received, plus the app's bookkeeping. */
export type StoredVersion = Omit<Version, 'orders' | 'positions'> & {
  synced_at: string;
  origin: VersionOrigin;
  /** The Location path from the execute response, polled while tracking. */
  location: string | null;
  orders?: Order[];
  positions?: VersionPosition[];
};

/** When the app first saw a version in a status. */
export interface StatusSeen {
  status: string;
  first_seen_at: string;
}

export interface VersionUpsertOptions {
  /** Used when the version is new; an existing version keeps its origin. Default 'imported'. */
  origin?: VersionOrigin;
  /** Replaces the stored Location when given; null/absent keeps the stored one. */
  location?: string | null;
  syncedAt?: string;
}

const VERSION_COLUMNS = `strategy_id, id, cash_weight, old_cash_weight, scheduled_for, status,
  executed_at, inserted_at, synced_at, origin, location`;
const ORDER_COLUMNS = `id, date, side, symbol, status, status_reason, order_quantity, order_value,
  filled_quantity, filled_value, filled_average_price, inserted_at, updated_at`;
const ACTIVE_STATUSES = `('PENDING', 'CREATING_ORDERS', 'IN_PROGRESS')`;

export type VersionsRepository = ReturnType<typeof versionsRepository>;

export function versionsRepository({ db, now }: RepositoryContext) {
  const upsertVersion = db.prepare(
    `INSERT INTO versions (profile_id, ${VERSION_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (profile_id, id) DO UPDATE SET
       cash_weight = excluded.cash_weight, old_cash_weight = excluded.old_cash_weight,
       scheduled_for = excluded.scheduled_for, status = excluded.status,
       executed_at = excluded.executed_at, inserted_at = excluded.inserted_at,
       synced_at = excluded.synced_at, location = COALESCE(excluded.location, versions.location)`,
  );
  const deleteOrders = db.prepare('DELETE FROM orders WHERE profile_id = ? AND version_id = ?');
  const insertOrder = db.prepare(
    `INSERT INTO orders (profile_id, version_id, ${ORDER_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const deletePositions = db.prepare(
    'DELETE FROM version_positions WHERE profile_id = ? AND version_id = ?',
  );
  const insertPosition = db.prepare(
    `INSERT INTO version_positions (profile_id, version_id, id, symbol, old_weight, weight, action)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const selectOne = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions WHERE profile_id = ? AND id = ?`,
  );
  const selectForStrategy = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions WHERE profile_id = ? AND strategy_id = ?
     ORDER BY inserted_at DESC, id`,
  );
  const selectLatestExecuted = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions
     WHERE profile_id = ? AND strategy_id = ? AND executed_at IS NOT NULL
     ORDER BY executed_at DESC, inserted_at DESC, id LIMIT 1`,
  );
  const selectActive = db.prepare<[], StoredVersion & { profile_id: string }>(
    `SELECT profile_id, ${VERSION_COLUMNS} FROM versions
     WHERE executed_at IS NOT NULL AND status IN ${ACTIVE_STATUSES} ORDER BY executed_at, id, profile_id`,
  );
  const selectOrders = db.prepare<[string, string], Order>(
    `SELECT ${ORDER_COLUMNS} FROM orders WHERE profile_id = ? AND version_id = ? ORDER BY rowid`,
  );
  const selectPositions = db.prepare<[string, string], VersionPosition>(
    `SELECT id, symbol, old_weight, weight, action FROM version_positions
     WHERE profile_id = ? AND version_id = ? ORDER BY rowid`,
  );
  const remove = db.prepare('DELETE FROM versions WHERE profile_id = ? AND id = ?');
  // Prepared on first use: a file opened below schema 3 (tests of older migrations) has no table.
  let seenStatements: ReturnType<typeof prepareStatusSeen> | undefined;
  const statusSeenStatements = () => (seenStatements ??= prepareStatusSeen(db));

  // One transaction per response: a reader never sees a version with half of its orders.
  // Orders and positions are replaced wholesale (delete + insert) when the response carries
  // them, so replaying a response is idempotent and an update drops rows the service dropped.
  const upsert = db.transaction(
    (profileId: string, v: Version, origin: VersionOrigin, location: string | null, at: string) => {
      upsertVersion.run(
        profileId,
        v.strategy_id,
        v.id,
        v.cash_weight,
        v.old_cash_weight,
        v.scheduled_for,
        v.status,
        v.executed_at,
        v.inserted_at,
        at,
        origin,
        location,
      );
      const orders = v.orders;
      if (orders) {
        deleteOrders.run(profileId, v.id);
        for (let i = 0; i < orders.length; i++) {
          const o = orders[i]!;
          insertOrder.run(
            profileId,
            v.id,
            o.id,
            o.date,
            o.side,
            o.symbol,
            o.status,
            o.status_reason,
            o.order_quantity,
            o.order_value,
            o.filled_quantity,
            o.filled_value,
            o.filled_average_price,
            o.inserted_at,
            o.updated_at,
          );
        }
      }
      const positions = v.positions;
      if (positions) {
        deletePositions.run(profileId, v.id);
        for (let i = 0; i < positions.length; i++) {
          const p = positions[i]!;
          insertPosition.run(profileId, v.id, p.id, p.symbol, p.old_weight, p.weight, p.action);
        }
      }
    },
  );

  return {
    /** Stores a version response (from execute, a poll or an import) in one transaction. */
    upsert(profileId: string, version: Version, options: VersionUpsertOptions = {}): void {
      upsert(
        profileId,
        version,
        options.origin ?? 'imported',
        options.location ?? null,
        options.syncedAt ?? now(),
      );
    },
    get(
      profileId: string,
      versionId: string,
      include: { orders?: boolean; positions?: boolean } = {},
    ): StoredVersion | null {
      const v = selectOne.get(profileId, versionId);
      if (!v) return null;
      if (include.orders) v.orders = selectOrders.all(profileId, versionId);
      if (include.positions) v.positions = selectPositions.all(profileId, versionId);
      return v;
    },
    /** The strategy's versions known to the app (created or imported), newest first. */
    listForStrategy(profileId: string, strategyId: string): StoredVersion[] {
      return selectForStrategy.all(profileId, strategyId);
    },
    /** The current target: the latest executed version, whatever its status, with positions. */
    latestExecuted(profileId: string, strategyId: string): StoredVersion | null {
      const v = selectLatestExecuted.get(profileId, strategyId);
      if (v) v.positions = selectPositions.all(profileId, v.id);
      return v ?? null;
    },
    /** Executed versions whose rebalance has not ended: the tracker resumes these at start-up. */
    listActive(): (StoredVersion & { profile_id: string })[] {
      return selectActive.all();
    },
    orders(profileId: string, versionId: string): Order[] {
      return selectOrders.all(profileId, versionId);
    },
    positions(profileId: string, versionId: string): VersionPosition[] {
      return selectPositions.all(profileId, versionId);
    },
    /** Notes that the version was seen in this status, unless it was seen in it before. */
    noteStatusSeen(profileId: string, versionId: string, status: string, at: string): void {
      statusSeenStatements().insert.run(status, at, profileId, versionId);
    },
    /** When each status of the version was first seen, earliest first. */
    statusSeen(profileId: string, versionId: string): StatusSeen[] {
      return statusSeenStatements().select.all(profileId, versionId);
    },
    /** Forgets a version (after the service deleted it), with its orders and positions. */
    remove(profileId: string, versionId: string): boolean {
      return remove.run(profileId, versionId).changes > 0;
    },
  };
}

function prepareStatusSeen(db: RepositoryContext['db']) {
  return {
    // The first sighting of a status wins: a later poll of the same status changes nothing.
    insert: db.prepare(
      `INSERT INTO version_status_seen (profile_id, version_id, status, first_seen_at)
       SELECT profile_id, id, ?, ? FROM versions WHERE profile_id = ? AND id = ?
       ON CONFLICT (profile_id, version_id, status) DO NOTHING`,
    ),
    select: db.prepare<[string, string], StatusSeen>(
      `SELECT status, first_seen_at FROM version_status_seen
       WHERE profile_id = ? AND version_id = ? ORDER BY first_seen_at, status`,
    ),
  };
}
