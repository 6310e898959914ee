/**
 * The store export's fast path. Reading an order as 18 separate JS strings costs more than
 * everything else an export does, so SQLite joins the cells of each order into one string
 * (separated by NUL, ending in CRLF). Most orders need no quoting and no neutralization and carry
 * plain decimals: one regex over the joined string proves it, and the string is written as it is,
 * each NUL becoming a comma on the bytes. Any other order is split back into its cells and
 * formatted by formatOrderReportCells, so the file is byte for byte what formatOrderReportRow
 * gives for the same rows.
 */
import {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_NUMERIC_COLUMNS,
  type OrderReportColumn,
} from './columns';
import { PLAIN_FIRST_CHAR } from '../csv/cell';
import type { OrderReportQuery, Store } from '../store';
import { formatOrderReportCells, formatOrderReportRow } from './format';

/** Cells that may be NULL in the store (every other one is NOT NULL). */
const NULLABLE_COLUMNS: readonly OrderReportColumn[] = [
  'version_status',
  'executed_at',
  'status_reason',
  'filled_quantity',
  'filled_value',
  'filled_average_price',
];

/**
 * Stands for an empty string stored in a nullable decimal cell, which is an error, whereas NULL
 * is an empty cell: it fails the plain-line check, and formatting names it as empty.
 */
const EMPTY_DECIMAL_MARK = '\u0001';

const isNumeric = (column: OrderReportColumn) =>
  (ORDER_REPORT_NUMERIC_COLUMNS as readonly string[]).includes(column);

/**
 * The SQL expression of an order's joined cells, given the SQL expression of each column.
 * One function call per order and inline operators per cell (ifnull, CASE): a function call per
 * cell would cost more than everything it saves.
 */
export function joinedOrderReportCellsSql(
  expressions: Readonly<Record<OrderReportColumn, string>>,
): string {
  const cells = ORDER_REPORT_COLUMNS.map((column) => {
    const sql = expressions[column];
    if (!NULLABLE_COLUMNS.includes(column)) return sql;
    if (!isNumeric(column)) return `ifnull(${sql}, '')`;
    return `CASE WHEN ${sql} IS NULL THEN '' WHEN ${sql} = '' THEN char(1) ELSE ${sql} END`;
  });
  // concat_ws builds the string once, where a chain of || would copy it again at every cell.
  // It skips a NULL argument: a NULL in a NOT NULL cell then shows as a cell too few.
  return `concat_ws(char(0), ${cells.join(', ')}) || char(13, 10)`;
}

// A text cell that is written as is: no NUL, comma, quote, CR or LF anywhere, and a first
// character after which no spreadsheet reads a formula (any other takes formatOrderReportCells,
// by the app's one CSV rule). A decimal as DECIMAL_PATTERN has it.
const TEXT = `${PLAIN_FIRST_CHAR}[^\\0,"\\r\\n]*`;
const DECIMAL = '-?\\d+(?:\\.\\d+)?';

/**
 * The strategy and version cells come first and repeat on every order of a version: they are
 * checked and formatted once per version, the order cells on every line.
 */
const PREFIX_CELLS = ORDER_REPORT_COLUMNS.indexOf('order_id');

const cellPattern = (column: OrderReportColumn, i: number) => {
  const cell = isNumeric(column) ? DECIMAL : TEXT;
  // The first cell of each part is never empty, so a line never starts with a NUL.
  const optional = i > 0 && (NULLABLE_COLUMNS.includes(column) || !isNumeric(column));
  return optional ? `(?:${cell})?` : cell;
};
const PLAIN_PREFIX = new RegExp(
  '^' +
    ORDER_REPORT_COLUMNS.slice(0, PREFIX_CELLS)
      .map((column, i) => cellPattern(column, i) + '\\0')
      .join('') +
    '$',
);
/** Sticky: tested from the end of the prefix, without cutting the string. */
const PLAIN_ORDER = new RegExp(
  ORDER_REPORT_COLUMNS.slice(PREFIX_CELLS).map(cellPattern).join('\\0') + '\\r\\n$',
  'y',
);

const NULLABLE_CELL = ORDER_REPORT_COLUMNS.map((column) => NULLABLE_COLUMNS.includes(column));
const NUMERIC_CELL = ORDER_REPORT_COLUMNS.map(isNumeric);

/** Joined cells back to cells: NULL where the store may hold NULL, the empty-decimal mark undone. */
function cellsOf(parts: string[], first: number): (string | null)[] {
  const cells: (string | null)[] = parts;
  for (let i = 0; i < cells.length; i++) {
    if (!NULLABLE_CELL[first + i]) continue;
    if (cells[i] === '') cells[i] = null;
    else if (NUMERIC_CELL[first + i] && cells[i] === EMPTY_DECIMAL_MARK) cells[i] = '';
  }
  return cells;
}

/**
 * Turns each order's joined cells into what writeOrderReportLines takes: a string whose NULs
 * all separate cells (written with each NUL as a comma), or a NUL followed by a formatted CSV
 * line. One per export: it remembers the last version's cells.
 */
export class OrderReportLines {
  private rawPrefix = '';
  private csvPrefix = '';
  private prefixCells: (string | null)[] = [];
  private plainPrefix = false;

  /**
   * Undefined when the cells cannot be told apart (a cell holds a NUL itself, or a NOT NULL
   * cell is NULL): the caller then formats the rest from row objects. Throws
   * OrderReportRowError for a cell that cannot be written.
   */
  prepare(joined: unknown): string | undefined {
    if (typeof joined !== 'string') return undefined;
    if (this.rawPrefix === '' || !joined.startsWith(this.rawPrefix)) {
      if (!this.readPrefix(joined)) return undefined;
    }
    const start = this.rawPrefix.length;
    PLAIN_ORDER.lastIndex = start;
    if (PLAIN_ORDER.test(joined)) {
      // Every NUL left separates cells: the cell count is right.
      return this.plainPrefix ? joined : this.csvPrefix + joined.slice(start);
    }
    if (!joined.endsWith('\r\n')) return undefined;
    const parts = joined.slice(start, -2).split('\0');
    if (parts.length !== ORDER_REPORT_COLUMNS.length - PREFIX_CELLS) return undefined;
    return '\0' + formatOrderReportCells([...this.prefixCells, ...cellsOf(parts, PREFIX_CELLS)]);
  }

  private readPrefix(joined: string): boolean {
    let end = -1;
    for (let i = 0; i < PREFIX_CELLS; i++) {
      end = joined.indexOf('\0', end + 1);
      if (end < 0) return false;
    }
    this.rawPrefix = joined.slice(0, end + 1);
    this.prefixCells = cellsOf(this.rawPrefix.slice(0, -1).split('\0'), 0);
    this.csvPrefix = formatOrderReportCells(this.prefixCells, PREFIX_CELLS);
    this.plainPrefix = PLAIN_PREFIX.test(this.rawPrefix);
    return true;
  }
}

/**
 * The export's path: the orders `query` names as lines for writeOrderReportLines, from one
 * snapshot on a read-only connection of their own. SQLite joins each order's cells; the rare
 * order whose cells cannot be split apart again sends the rest of the report through row
 * objects, read in the same snapshot.
 */
export function orderReportLines(
  reports: Pick<Store['reports'], 'readSnapshot'>,
  query: OrderReportQuery,
): Generator<string, void, undefined> {
  return reports.readSnapshot(query, function* (snapshot) {
    const prepared = new OrderReportLines();
    let lines = 0;
    let split = true;
    for (const cells of snapshot.joinedCells(joinedOrderReportCellsSql)) {
      const line = prepared.prepare(cells);
      if (line === undefined) {
        split = false;
        break;
      }
      lines++;
      yield line;
    }
    if (split) return;
    // The joined cells' cursor is closed first: one statement at a time on the connection.
    for (const row of snapshot.rowsFrom(lines)) yield '\0' + formatOrderReportRow(row);
  });
}
