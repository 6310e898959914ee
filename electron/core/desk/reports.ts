import type { DeskHandlers } from '../../../shared/contract';
import type { ReportSelection } from '../../../shared/views';
import type { Exports } from '../exports';
import { ORDER_REPORT_HEADER, orderReportLines } from '../reports';
import type { OrderReportQuery, Store } from '../store';

export type { ChooseExportPath } from '../exports';

/** A calendar day in the local time the manager typed it in, as YYYY-MM-DD. */
function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The file name the save dialog offers. A range runs from the first day's local midnight up to the
 * midnight after the last day (exclusive), so the name's last day is the one just before `to`.
 */
export function suggestedName(selection: ReportSelection): string {
  switch (selection.kind) {
    case 'version':
      return `orders-version-${selection.versionId}.csv`;
    case 'strategy':
      return `orders-strategy-${selection.strategyId}.csv`;
    case 'range':
      return `orders-${localDay(new Date(selection.from))}-to-${localDay(
        new Date(Date.parse(selection.to) - 1),
      )}.csv`;
  }
}

function queryOf(profileId: string, selection: ReportSelection): OrderReportQuery {
  switch (selection.kind) {
    case 'version':
      return { profileId, versionId: selection.versionId };
    case 'strategy':
      return { profileId, strategyId: selection.strategyId };
    case 'range':
      return { profileId, from: selection.from, to: selection.to };
  }
}

export interface ReportServices {
  store: Pick<Store, 'reports'>;
  exports: Exports;
}

export function reportHandlers({ store, exports }: ReportServices): DeskHandlers['reports'] {
  return {
    exportOrders: ({ profileId, selection, exportId }) =>
      exports.write(
        {
          name: suggestedName(selection),
          header: ORDER_REPORT_HEADER,
          // Every numeric cell is validated on the way (see reports/lines.ts).
          lines: () => orderReportLines(store.reports, queryOf(profileId, selection)),
        },
        exportId,
      ),
  };
}
