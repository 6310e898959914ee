import Database from 'better-sqlite3';
import type { OrderReportRow } from '../../reports/columns';

// The report's columns are the report module's: the query selects exactly those, in order.
export type { OrderReportRow } from '../../reports/columns';

/** Which orders: one version, every version of a strategy, or versions executed in [from, to). */
export type OrderReportQuery =
  | { profileId: string; versionId: string }
  | { profileId: string; strategyId: string }
  | { profileId: string; from: string; to: string };

const SELECT = `SELECT v.strategy_id, s.name AS strategy_name, v.id AS version_id,
    v.status AS version_status, v.executed_at, o.id AS order_id, o.date, o.side, o.symbol,
    o.status, o.status_reason, o.order_quantity, o.order_value, o.filled_quantity,
    o.filled_value, o.filled_average_price, o.inserted_at, o.updated_at
  FROM versions v
  JOIN strategies s ON s.profile_id = v.profile_id AND s.id = v.strategy_id
  JOIN orders o ON o.profile_id = v.profile_id AND o.version_id = v.id`;
const ORDER_BY = 'ORDER BY v.executed_at, v.id, o.rowid';

function statementFor(db: Database.Database, query: OrderReportQuery) {
  if ('versionId' in query)
    return {
      stmt: db.prepare(`${SELECT} WHERE v.profile_id = ? AND v.id = ? ${ORDER_BY}`),
      args: [query.profileId, query.versionId],
    };
  if ('strategyId' in query)
    return {
      stmt: db.prepare(`${SELECT} WHERE v.profile_id = ? AND v.strategy_id = ? ${ORDER_BY}`),
      args: [query.profileId, query.strategyId],
    };
  return {
    stmt: db.prepare(
      `${SELECT} WHERE v.profile_id = ? AND v.executed_at >= ? AND v.executed_at < ? ${ORDER_BY}`,
    ),
    args: [query.profileId, query.from, query.to],
  };
}

/**
 * Streams report rows from a read-only connection of its own. An open `.iterate()` cursor keeps
 * its connection busy, so reading on the writer connection would make every write (tracker,
 * autosave) fail while a large export waits for the disk; WAL gives this reader a consistent
 * snapshot of the orders while writes go on. The connection closes when iteration ends or the
 * consumer stops early (for..of break, or `return()` on the iterator).
 *
 * `raw: true` yields arrays in ORDER_REPORT_COLUMNS order (cheaper for CSV writers).
 */
export function iterateOrderReportRows(
  path: string,
  nativeBinding: string | undefined,
  query: OrderReportQuery,
  options?: { raw?: false },
): Generator<OrderReportRow, void, undefined>;
export function iterateOrderReportRows(
  path: string,
  nativeBinding: string | undefined,
  query: OrderReportQuery,
  options: { raw: true },
): Generator<(string | null)[], void, undefined>;
export function* iterateOrderReportRows(
  path: string,
  nativeBinding: string | undefined,
  query: OrderReportQuery,
  options: { raw?: boolean } = {},
): Generator<OrderReportRow | (string | null)[], void, undefined> {
  const reader = new Database(path, {
    readonly: true,
    fileMustExist: true,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
  try {
    const { stmt, args } = statementFor(reader, query);
    if (options.raw) stmt.raw(true);
    yield* stmt.iterate(...args) as IterableIterator<OrderReportRow | (string | null)[]>;
  } finally {
    reader.close();
  }
}
