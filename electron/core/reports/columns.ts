import { ORDER_FIELDS } from '../../../shared/domain/constants';
import { DeskError } from '../../../shared/errors';
import { describeCause, DomainError, systemErrorKind, type ErrorLog } from '../errors';

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

/** Columns holding decimal strings: validated and written exactly as received, never neutralized. */
export const ORDER_REPORT_NUMERIC_COLUMNS = [
  'order_quantity',
  'order_value',
  'filled_quantity',
  'filled_value',
  'filled_average_price',
] as const satisfies readonly OrderReportColumn[];

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

/** A row that cannot be written faithfully: names the order and the column so it can be found. */
export class OrderReportRowError extends DomainError {
  override readonly name = 'OrderReportRowError';
  constructor(
    readonly orderId: string,
    readonly column: OrderReportColumn,
    readonly value: unknown,
    problem: string,
  ) {
    super(`Order ${orderId} cannot be exported: its ${column} ${problem}.`);
  }

  toDeskError(): DeskError {
    return new DeskError({
      kind: 'bad-response',
      message: this.message,
      details: { ambiguous: false },
    });
  }
}

/** A file-system failure while saving a report, in words a strategy manager understands. */
export class OrderReportFileError extends DomainError {
  override readonly name = 'OrderReportFileError';
  constructor(
    message: string,
    readonly path: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  toDeskError(log: ErrorLog): DeskError {
    // Its words name the folder and what to do; the raw system text is only in its cause.
    log(`report file: ${describeCause(this.cause)}`);
    const systemKind = systemErrorKind(this);
    if (systemKind) return new DeskError({ kind: systemKind, message: this.message });
    return new DeskError({
      kind: 'internal',
      message: `The report could not be saved to ${this.path}.`,
    });
  }
}
