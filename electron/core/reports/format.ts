/**
 * Formats order report rows as RFC 4180 CSV lines, each cell by the app's one CSV rule
 * (../csv/cell.ts). This is the export's hot path: a row is built by plain string concatenation
 * (no per-cell arrays).
 */
import { CRLF, csvDecimalCell, csvTextCell } from '../csv/cell';
import {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_NUMERIC_COLUMNS,
  OrderReportRowError,
  type OrderReportColumn,
  type OrderReportRow,
} from './columns';

export { CRLF, isFormulaLike } from '../csv/cell';

export const ORDER_REPORT_HEADER = ORDER_REPORT_COLUMNS.join(',') + CRLF;

/** The row a cell belongs to, for naming its order in an error: an object or the cells in column order. */
type RowOf = OrderReportRow | readonly unknown[];

function text(value: unknown, row: RowOf, column: OrderReportColumn): string {
  if (typeof value !== 'string') {
    if (value == null) return '';
    throw new OrderReportRowError(orderIdOf(row), column, value, `is ${describe(value)}, not text`);
  }
  return csvTextCell(value);
}

/** Decimals go out exactly as received; a negative decimal is a number, so it is not neutralized. */
function decimal(value: unknown, row: RowOf, column: OrderReportColumn): string {
  const cell = typeof value === 'string' ? csvDecimalCell(value) : null;
  if (cell !== null) return cell;
  if (value == null) return '';
  const problem =
    typeof value === 'string'
      ? `is ${describe(value)}, which is not a plain decimal number`
      : `is ${describe(value)}, not a decimal written as text (it could have lost precision)`;
  throw new OrderReportRowError(orderIdOf(row), column, value, problem);
}

/**
 * The strategy and version cells repeat on every order of a version (hundreds of rows in a row),
 * so the formatted prefix of the last row is kept and reused when those five values are equal.
 */
let lastStrategyId: unknown;
let lastStrategyName: unknown;
let lastVersionId: unknown;
let lastVersionStatus: unknown;
let lastExecutedAt: unknown;
let lastPrefix = '';

function versionPrefix(row: OrderReportRow): string {
  const { strategy_id, strategy_name, version_id, version_status, executed_at } = row;
  if (
    version_id === lastVersionId &&
    strategy_id === lastStrategyId &&
    version_status === lastVersionStatus &&
    executed_at === lastExecutedAt &&
    strategy_name === lastStrategyName &&
    lastVersionId !== undefined
  )
    return lastPrefix;
  const prefix =
    text(strategy_id, row, 'strategy_id') +
    ',' +
    text(strategy_name, row, 'strategy_name') +
    ',' +
    text(version_id, row, 'version_id') +
    ',' +
    text(version_status, row, 'version_status') +
    ',' +
    text(executed_at, row, 'executed_at') +
    ',';
  lastStrategyId = strategy_id;
  lastStrategyName = strategy_name;
  lastVersionId = version_id;
  lastVersionStatus = version_status;
  lastExecutedAt = executed_at;
  lastPrefix = prefix;
  return prefix;
}

/** Formats one order as a CSV line ending in CRLF; throws OrderReportRowError for a bad cell. */
export function formatOrderReportRow(row: OrderReportRow): string {
  return (
    versionPrefix(row) +
    text(row.order_id, row, 'order_id') +
    ',' +
    text(row.date, row, 'date') +
    ',' +
    text(row.side, row, 'side') +
    ',' +
    text(row.symbol, row, 'symbol') +
    ',' +
    text(row.status, row, 'status') +
    ',' +
    text(row.status_reason, row, 'status_reason') +
    ',' +
    decimal(row.order_quantity, row, 'order_quantity') +
    ',' +
    decimal(row.order_value, row, 'order_value') +
    ',' +
    decimal(row.filled_quantity, row, 'filled_quantity') +
    ',' +
    decimal(row.filled_value, row, 'filled_value') +
    ',' +
    decimal(row.filled_average_price, row, 'filled_average_price') +
    ',' +
    text(row.inserted_at, row, 'inserted_at') +
    ',' +
    text(row.updated_at, row, 'updated_at') +
    CRLF
  );
}

/**
 * Formats one order given as its 18 cells in ORDER_REPORT_COLUMNS order (null for an empty cell),
 * exactly as formatOrderReportRow would format the same values. With `count` < 18, formats only
 * the first `count` cells, each followed by its comma (the start of a line).
 */
export function formatOrderReportCells(
  cells: readonly (string | null)[],
  count: number = ORDER_REPORT_COLUMNS.length,
): string {
  let line = '';
  for (let i = 0; i < count; i++) {
    const column = ORDER_REPORT_COLUMNS[i]!;
    const cell = IS_DECIMAL_COLUMN[i]
      ? decimal(cells[i], cells, column)
      : text(cells[i], cells, column);
    line += i === ORDER_REPORT_COLUMNS.length - 1 ? cell + CRLF : cell + ',';
  }
  return line;
}

const IS_DECIMAL_COLUMN = ORDER_REPORT_COLUMNS.map((column) =>
  (ORDER_REPORT_NUMERIC_COLUMNS as readonly string[]).includes(column),
);
const ORDER_ID_CELL = ORDER_REPORT_COLUMNS.indexOf('order_id');

function orderIdOf(row: RowOf): string {
  const id: unknown = Array.isArray(row) ? row[ORDER_ID_CELL] : (row as OrderReportRow).order_id;
  return typeof id === 'string' && id !== '' ? id : '(without an id)';
}

/** Shows a bad value in an error message: quoted, control characters visible, long ones cut. */
function describe(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 60 ? value.slice(0, 57) + '...' : value;
    return value === '' ? 'empty' : JSON.stringify(shown);
  }
  if (typeof value === 'number') return `the number ${String(value)}`;
  return `a value of type ${typeof value}`;
}
