/** CSV order reports (docs/client.md, Reports). */
export {
  ORDER_REPORT_COLUMNS,
  ORDER_REPORT_NUMERIC_COLUMNS,
  OrderReportFileError,
  OrderReportRowError,
  type OrderReportColumn,
  type OrderReportRow,
} from './columns';
export {
  ORDER_REPORT_HEADER,
  formatOrderReportCells,
  formatOrderReportRow,
  isFormulaLike,
} from './format';
export { OrderReportLines, joinedOrderReportCellsSql, orderReportLines } from './lines';
export { removeLeftoverExports } from './leftovers';
export {
  PARTIAL_EXPORT_NAME,
  PROGRESS_EVERY_ROWS,
  writeOrderReport,
  writeOrderReportLines,
  type OrderReportWritten,
  type PartialFiles,
  type WriteOrderReportOptions,
} from './write';
