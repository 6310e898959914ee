import type { Order, Version, VersionPosition } from '../../../../shared/domain/resources';
import { ORDER_FIELDS as ORDER_FIELD_NAMES } from '../../../../shared/domain/constants';
import type { RepositoryContext } from './context';
import { sameOrder, samePosition, syncRows, type ChildRows } from './version-rows';

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
const ORDER_FIELDS = ORDER_FIELD_NAMES satisfies readonly (keyof Order)[];
const ORDER_COLUMNS = ['id', ...ORDER_FIELDS].join(', ');
export const POSITION_FIELDS = [
  'symbol',
  'old_weight',
  'weight',
  'action',
] as const satisfies readonly (keyof VersionPosition)[];
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
  const updateOrder = db.prepare(
    `UPDATE orders SET ${ORDER_FIELDS.map((f) => `${f} = ?`).join(', ')}
     WHERE profile_id = ? AND version_id = ? AND id = ?`,
  );
  const deleteOrder = db.prepare(
    'DELETE FROM orders WHERE profile_id = ? AND version_id = ? AND id = ?',
  );
  const countOrders = db
    .prepare('SELECT count(*) FROM orders WHERE profile_id = ? AND version_id = ?')
    .pluck();
  const deletePositions = db.prepare(
    'DELETE FROM version_positions WHERE profile_id = ? AND version_id = ?',
  );
  const insertPosition = db.prepare(
    `INSERT INTO version_positions (profile_id, version_id, id, symbol, old_weight, weight, action)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const updatePosition = db.prepare(
    `UPDATE version_positions SET ${POSITION_FIELDS.map((f) => `${f} = ?`).join(', ')}
     WHERE profile_id = ? AND version_id = ? AND id = ?`,
  );
  const deletePosition = db.prepare(
    'DELETE FROM version_positions WHERE profile_id = ? AND version_id = ? AND id = ?',
  );
  const countPositions = db
    .prepare('SELECT count(*) FROM version_positions WHERE profile_id = ? AND version_id = ?')
    .pluck();
  const selectOne = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions WHERE profile_id = ? AND id = ?`,
  );
  const selectForStrategy = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions WHERE profile_id = ? AND strategy_id = ?
     ORDER BY inserted_at DESC, id`,
  );
  // By the strategy's own versions: left to itself SQLite walks every executed version of the
  // profile (versions_by_executed_at), which grows with the book; a confirmation asks this often.
  const selectLatestExecuted = db.prepare<[string, string], StoredVersion>(
    `SELECT ${VERSION_COLUMNS} FROM versions INDEXED BY versions_by_strategy
     WHERE profile_id = ? AND strategy_id = ? AND executed_at IS NOT NULL
     ORDER BY executed_at DESC, inserted_at DESC, id LIMIT 1`,
  );
  const selectActive = db.prepare<[], StoredVersion & { profile_id: string }>(
    `SELECT profile_id, ${VERSION_COLUMNS} FROM versions
     WHERE executed_at IS NOT NULL AND status IN ${ACTIVE_STATUSES} ORDER BY executed_at, id, profile_id`,
  );
  // Scoped to a profile (and a strategy), from the index of the rebalancing versions only (few):
  // left to itself SQLite walks every executed version of the profile (versions_by_executed_at),
  // which grows with the history, and the sidebar asks for these as the first screen comes up.
  // Prepared on first use: a store opened at an older schema (a migration test) has no index yet.
  let active: ReturnType<typeof prepareActive> | null = null;
  const prepareActive = () => ({
    forProfile: db.prepare<[string], StoredVersion & { profile_id: string }>(
      `SELECT profile_id, ${VERSION_COLUMNS} FROM versions INDEXED BY versions_rebalancing
       WHERE profile_id = ? AND executed_at IS NOT NULL AND status IN ${ACTIVE_STATUSES}
       ORDER BY executed_at, id`,
    ),
    forStrategy: db.prepare<[string, string], StoredVersion & { profile_id: string }>(
      `SELECT profile_id, ${VERSION_COLUMNS} FROM versions INDEXED BY versions_rebalancing
       WHERE profile_id = ? AND strategy_id = ? AND executed_at IS NOT NULL
         AND status IN ${ACTIVE_STATUSES}
       ORDER BY executed_at, id`,
    ),
  });
  const countActive = db
    .prepare<[], number>(
      `SELECT count(*) FROM versions WHERE executed_at IS NOT NULL AND status IN ${ACTIVE_STATUSES}`,
    )
    .pluck();
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

  const orderRows: ChildRows<Order> = {
    same: sameOrder,
    count: (profileId, versionId) => countOrders.get(profileId, versionId) as number,
    all: (profileId, versionId) => selectOrders.all(profileId, versionId),
    insert: (profileId, versionId, o) =>
      insertOrder.run(
        profileId,
        versionId,
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
      ),
    update: (profileId, versionId, o) =>
      updateOrder.run(...ORDER_FIELDS.map((f) => o[f]), profileId, versionId, o.id),
    remove: (profileId, versionId, id) => deleteOrder.run(profileId, versionId, id),
    removeAll: (profileId, versionId) => deleteOrders.run(profileId, versionId),
  };
  const positionRows: ChildRows<VersionPosition> = {
    same: samePosition,
    count: (profileId, versionId) => countPositions.get(profileId, versionId) as number,
    all: (profileId, versionId) => selectPositions.all(profileId, versionId),
    insert: (profileId, versionId, p) =>
      insertPosition.run(profileId, versionId, p.id, p.symbol, p.old_weight, p.weight, p.action),
    update: (profileId, versionId, p) =>
      updatePosition.run(...POSITION_FIELDS.map((f) => p[f]), profileId, versionId, p.id),
    remove: (profileId, versionId, id) => deletePosition.run(profileId, versionId, id),
    removeAll: (profileId, versionId) => deletePositions.run(profileId, versionId),
  };

  /**
   * The orders and positions last written per version, by `profileId NUL versionId`: a poll
   * answer equal to them (the common case while a rebalance runs) writes neither. Kept for a few
   * versions only; trusted only while the stored row counts still match (a cascade delete
   * empties them) and never inside a caller's transaction (it could still roll back).
   */
  const written = new Map<string, { orders?: Order[]; positions?: VersionPosition[] }>();
  const WRITTEN_VERSIONS = 32;

  // One transaction per response: a reader never sees a version with half of its orders.
  // Orders and positions are brought in line with the response when it carries them: unchanged
  // rows are left alone, changed ones updated, new ones added and dropped ones deleted, so
  // replaying a response is idempotent and writes nothing but the version row.
  const upsert = db.transaction(
    (
      profileId: string,
      v: Version,
      origin: VersionOrigin,
      location: string | null,
      at: string,
      last: { orders?: Order[]; positions?: VersionPosition[] } | undefined,
    ) => {
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
      if (v.orders) syncRows(orderRows, profileId, v.id, v.orders, last?.orders);
      if (v.positions) syncRows(positionRows, profileId, v.id, v.positions, last?.positions);
    },
  );

  /** Stores a version response (from execute, a poll or an import) in one transaction. */
  const storeVersion = (
    profileId: string,
    version: Version,
    options: VersionUpsertOptions = {},
  ) => {
    const key = `${profileId}\0${version.id}`;
    const nested = db.inTransaction;
    const last = nested ? undefined : written.get(key);
    written.delete(key);
    upsert(
      profileId,
      version,
      options.origin ?? 'imported',
      options.location ?? null,
      options.syncedAt ?? now(),
      last,
    );
    if (nested) return;
    // Copies: the caller may reuse its arrays; the rows in them are not changed in place.
    written.set(key, {
      orders: version.orders ? [...version.orders] : last?.orders,
      positions: version.positions ? [...version.positions] : last?.positions,
    });
    if (written.size > WRITTEN_VERSIONS) written.delete(written.keys().next().value!);
  };
  /** Notes that the version was seen in this status, unless it was seen in it before. */
  const noteStatusSeen = (profileId: string, versionId: string, status: string, at: string) => {
    statusSeenStatements().insert.run(status, at, profileId, versionId);
  };

  return {
    upsert: storeVersion,
    /**
     * A version just read from the service (an execute's answer, a poll, an import, a fresh read)
     * is stored, and its status noted as seen at the same time, the first time it is seen in it.
     */
    recordRead(
      profileId: string,
      version: Version,
      options: VersionUpsertOptions & { syncedAt: string },
    ): void {
      storeVersion(profileId, version, options);
      if (version.status !== null)
        noteStatusSeen(profileId, version.id, version.status, options.syncedAt);
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
    /**
     * The current target: the latest executed version, whatever its status, with positions (and
     * its orders when asked: the holdings are checked against them). `positions: false`: the
     * version alone, for who needs only its id or status.
     */
    latestExecuted(
      profileId: string,
      strategyId: string,
      include: { orders?: boolean; positions?: boolean } = {},
    ): StoredVersion | null {
      const v = selectLatestExecuted.get(profileId, strategyId);
      if (!v) return null;
      if (include.positions !== false) v.positions = selectPositions.all(profileId, v.id);
      if (include.orders) v.orders = selectOrders.all(profileId, v.id);
      return v;
    },
    /**
     * Executed versions whose rebalance has not ended (the tracker resumes these at start-up),
     * optionally only a profile's or one strategy's; oldest execution first.
     */
    listActive(
      scope: { profileId: string; strategyId?: string } | null = null,
    ): (StoredVersion & { profile_id: string })[] {
      if (scope === null) return selectActive.all();
      active ??= prepareActive();
      if (scope.strategyId === undefined) return active.forProfile.all(scope.profileId);
      return active.forStrategy.all(scope.profileId, scope.strategyId);
    },
    /** How many versions are rebalancing: the status bar's count. */
    countActive(): number {
      return countActive.get() ?? 0;
    },
    orders(profileId: string, versionId: string): Order[] {
      return selectOrders.all(profileId, versionId);
    },
    positions(profileId: string, versionId: string): VersionPosition[] {
      return selectPositions.all(profileId, versionId);
    },
    noteStatusSeen,
    /** When each status of the version was first seen, earliest first. */
    statusSeen(profileId: string, versionId: string): StatusSeen[] {
      return statusSeenStatements().select.all(profileId, versionId);
    },
    /** Forgets a version (after the service deleted it), with its orders and positions. */
    remove(profileId: string, versionId: string): boolean {
      written.delete(`${profileId}\0${versionId}`);
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
