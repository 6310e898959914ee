import { DeskError } from '../../../shared/errors';
import { describeCause, DomainError, systemErrorKind, type ErrorLog } from '../errors';
import type { OrderReportColumn } from '../store';

// The columns are the rows the store reads for a report, in the order docs/client.md (Reports)
// fixes for the CSV header.
export { ORDER_REPORT_COLUMNS, type OrderReportColumn, type OrderReportRow } from '../store';

/** Columns holding decimal strings: validated and written exactly as received, never neutralized. */
export const ORDER_REPORT_NUMERIC_COLUMNS = [
  'order_quantity',
  'order_value',
  'filled_quantity',
  'filled_value',
  'filled_average_price',
] as const satisfies readonly OrderReportColumn[];

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
