import Database from 'better-sqlite3';
import { ORDER_FIELDS } from '../../../../shared/domain/constants';
import { toUtcTimestamp } from '../../../../shared/domain/resources';

// The rows the order report is made of: the query selects exactly these columns, in order;
// formatting them is the report module's (electron/core/reports).
/** The order report's columns, in the order docs/client.md (Reports) fixes for the CSV header. */
export const ORDER_REPORT_COLUMNS = [
  'strategy_id',
  'strategy_name',
  'version_id',
  'version_status',
  'executed_at',
  'order_id',
  ...ORDER_FIELDS,
] as const;

export type OrderReportColumn = (typeof ORDER_REPORT_COLUMNS)[number];

/** One order with its version and strategy, as the store reads it (decimals are strings). */
export interface OrderReportRow {
  strategy_id: string;
  strategy_name: string;
  version_id: string;
  version_status: string | null;
  executed_at: string | null;
  order_id: string;
  date: string;
  side: string;
  symbol: string;
  status: string;
  status_reason: string | null;
  order_quantity: string;
  order_value: string;
  filled_quantity: string | null;
  filled_value: string | null;
  filled_average_price: string | null;
  inserted_at: string;
  updated_at: string;
}

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

/** One read of the orders, in one snapshot of the database. */
export interface OrderReportSnapshot {
  /**
   * Each order's cells joined into one value by the SQL expression `joined` makes of each
   * column's, in report order (see reports/lines.ts).
   */
  joinedCells(
    joined: (cells: Readonly<Record<OrderReportColumn, string>>) => string,
  ): IterableIterator<unknown>;
  /** The orders from the `offset`th on (0 the first), as row objects. */
  rowsFrom(offset: number): IterableIterator<OrderReportRow>;
}

/**
 * Runs `read` over one snapshot of the orders `query` names, on a read-only connection of its
 * own (one read transaction: a second query sees the same orders as the first), and streams what
 * it yields. One statement at a time: an open cursor keeps the connection busy.
 */
export function* readOrderReportSnapshot<T>(
  path: string,
  nativeBinding: string | undefined,
  query: OrderReportQuery,
  read: (snapshot: OrderReportSnapshot) => Iterable<T>,
): Generator<T, void, undefined> {
  const reader = openReader(path, nativeBinding);
  try {
    reader.exec('BEGIN');
    yield* read({
      joinedCells: (joined) => {
        const { stmt, args } = statementFor(reader, query, `SELECT ${joined(CELLS)} ${FROM}`);
        return stmt.pluck(true).iterate(...args);
      },
      rowsFrom: (offset) => {
        const rest = statementFor(reader, query, SELECT, ` LIMIT -1 OFFSET ${offset}`);
        return rest.stmt.iterate(...rest.args) as IterableIterator<OrderReportRow>;
      },
    });
  } finally {
    reader.close();
  }
}
