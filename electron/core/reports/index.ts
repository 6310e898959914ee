/** CSV order reports (docs/client.md, Reports). */
export {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_NUMERIC_COLUMNS,
  OrderReportFileError,
  OrderReportRowError,
  type OrderReportColumn,
  type OrderReportRow,
} from './columns';
export { ORDER_REPORT_HEADER, formatOrderReportRow, isFormulaLike } from './format';
export {
  PROGRESS_EVERY_ROWS,
  writeOrderReport,
  type OrderReportWritten,
  type WriteOrderReportOptions,
} from './write';
