import Database from 'better-sqlite3';
import { toUtcTimestamp } from '../../../../shared/domain/resources';
import type { OrderReportColumn, OrderReportRow } from '../../reports/columns';
import { formatOrderReportRow } from '../../reports/format';
import { OrderReportLines, joinedOrderReportCellsSql } from '../../reports/lines';

// The report's columns are the report module's: the query selects exactly those, in order.
export type { OrderReportRow } from '../../reports/columns';

/** Which orders: one version, every version of a strategy, or versions executed in [from, to). */
export type OrderReportQuery =
  | { profileId: string; versionId: string }
  | { profileId: string; strategyId: string }
  | { profileId: string; from: string; to: string };

/** Where each report column comes from. */
const CELLS: Record<OrderReportColumn, string> = {
  strategy_id: 'v.strategy_id',
  strategy_name: 's.name',
  version_id: 'v.id',
  version_status: 'v.status',
  executed_at: 'v.executed_at',
  order_id: 'o.id',
  date: 'o.date',
  side: 'o.side',
  symbol: 'o.symbol',
  status: 'o.status',
  status_reason: 'o.status_reason',
  order_quantity: 'o.order_quantity',
  order_value: 'o.order_value',
  filled_quantity: 'o.filled_quantity',
  filled_value: 'o.filled_value',
  filled_average_price: 'o.filled_average_price',
  inserted_at: 'o.inserted_at',
  updated_at: 'o.updated_at',
};
const FROM = `FROM versions v
  JOIN strategies s ON s.profile_id = v.profile_id AND s.id = v.strategy_id
  JOIN orders o ON o.profile_id = v.profile_id AND o.version_id = v.id`;
const SELECT = `SELECT ${Object.entries(CELLS)
  .map(([column, sql]) => `${sql} AS ${column}`)
  .join(', ')} ${FROM}`;
const SELECT_JOINED = `SELECT ${joinedOrderReportCellsSql(CELLS)} ${FROM}`;
const ORDER_BY = 'ORDER BY v.executed_at, v.id, o.rowid';

function statementFor(db: Database.Database, query: OrderReportQuery, select = SELECT, tail = '') {
  if ('versionId' in query)
    return {
      stmt: db.prepare(`${select} WHERE v.profile_id = ? AND v.id = ? ${ORDER_BY}${tail}`),
      args: [query.profileId, query.versionId],
    };
  if ('strategyId' in query)
    return {
      stmt: db.prepare(`${select} WHERE v.profile_id = ? AND v.strategy_id = ? ${ORDER_BY}${tail}`),
      args: [query.profileId, query.strategyId],
    };
  return {
    stmt: db.prepare(
      `${select} WHERE v.profile_id = ? AND v.executed_at >= ? AND v.executed_at < ? ${ORDER_BY}${tail}`,
    ),
    // Stored timestamps are UTC text; bounds given with an offset are the same instants in UTC.
    args: [query.profileId, utc(query.from), utc(query.to)],
  };
}

const utc = (bound: string) => toUtcTimestamp(bound) ?? bound;

function openReader(path: string, nativeBinding: string | undefined): Database.Database {
  return new Database(path, {
    readonly: true,
    fileMustExist: true,
    ...(nativeBinding ? { nativeBinding } : {}),
  });
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
  const reader = openReader(path, nativeBinding);
  try {
    const { stmt, args } = statementFor(reader, query);
    if (options.raw) stmt.raw(true);
    yield* stmt.iterate(...args) as IterableIterator<OrderReportRow | (string | null)[]>;
  } finally {
    reader.close();
  }
}

/**
 * The export's path: the same orders as iterateOrderReportRows, as lines for
 * writeOrderReportLines (see reports/lines.ts), from a read-only connection of its own.
 * SQLite joins each order's cells; the rare order whose cells cannot be split apart again sends
 * the rest of the report through row objects, read in the same snapshot.
 */
export function* iterateOrderReportLines(
  path: string,
  nativeBinding: string | undefined,
  query: OrderReportQuery,
): Generator<string, void, undefined> {
  const reader = openReader(path, nativeBinding);
  try {
    // One read transaction: the row-object query, if needed, sees the same orders.
    reader.exec('BEGIN');
    const joined = statementFor(reader, query, SELECT_JOINED);
    const prepared = new OrderReportLines();
    let lines = 0;
    let split = true;
    for (const cells of joined.stmt.pluck(true).iterate(...joined.args)) {
      const line = prepared.prepare(cells);
      if (line === undefined) {
        split = false;
        break;
      }
      lines++;
      yield line;
    }
    if (split) return;
    const rest = statementFor(reader, query, SELECT, ` LIMIT -1 OFFSET ${lines}`);
    for (const row of rest.stmt.iterate(...rest.args) as IterableIterator<OrderReportRow>)
      yield '\0' + formatOrderReportRow(row);
  } finally {
    reader.close();
  }
}
