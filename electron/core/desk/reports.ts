import { randomUUID } from 'node:crypto';
import type { DeskHandlers } from '../../../shared/contract';
import type { ReportSelection } from '../../../shared/views';
import { writeOrderReportLines, type PartialFiles } from '../reports';
import type { OrderReportQuery, Store } from '../store';
import type { Emit } from './events';

/** Where an export goes: the desktop shell asks with a save dialog; null means cancelled. */
export type ChooseExportPath = (suggestedName: string) => Promise<string | null>;

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
  emit: Emit;
  choosePath: ChooseExportPath;
  /** Where the export's temporary file is listed while it exists (reports/partials.ts). */
  partial?: PartialFiles;
}

export function reportHandlers({
  store,
  emit,
  choosePath,
  partial,
}: ReportServices): DeskHandlers['reports'] {
  return {
    async exportOrders({ profileId, selection }) {
      const path = await choosePath(suggestedName(selection));
      if (path === null) return null;
      const exportId = randomUUID();
      // Every numeric cell is validated on the way (see reports/lines.ts).
      const lines = store.reports.iterateOrderReportLines(queryOf(profileId, selection));
      const written = await writeOrderReportLines(lines, path, {
        onProgress: (n) => emit({ type: 'export-progress', exportId, rows: n, done: false }),
        ...(partial && { partial }),
      });
      emit({ type: 'export-progress', exportId, rows: written.rows, done: true });
      return { exportId, path: written.path, rows: written.rows, bytes: written.bytes };
    },
  };
}
