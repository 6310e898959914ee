import { CRLF, csvCell } from '../csv/cell';
import { formattedLine, type ExportFile } from '../exports';
import { ORDER_REPORT_HEADER, formatOrderReportRow } from '../reports';
import type { Store, StoredBatch } from '../store';
import { BATCH_ITEM_STATE_LABELS } from '../../../shared/batches/states';
import { itemView } from './views';

/**
 * A batch's two CSV files (docs/batches.md): every order of its versions, as the order report
 * writes them (reports/) followed by the batch's id, model and revision; and one row per strategy
 * with its outcome and counts. Each cell by the app's one CSV rule (csv/cell.ts); each file written
 * by the app's one export (core/exports), its rows read once the path is chosen.
 */

export const BATCH_ORDER_EXTRA_COLUMNS = [
  'batch_id',
  'model_id',
  'model_name',
  'revision_number',
  'revision_hash',
] as const;

export const BATCH_SUMMARY_COLUMNS = [
  'batch_id',
  'model_name',
  'revision_number',
  'position',
  'strategy_id',
  'strategy_name',
  'outcome',
  'reason',
  'version_id',
  'version_status',
  'orders',
  'orders_filled',
  'orders_failed',
] as const;

export const batchCsvName = (batch: StoredBatch, what: 'orders' | 'summary') =>
  `batch-${batch.id}-${what}.csv`;

type CsvStore = Pick<Store, 'batches' | 'models' | 'versions' | 'reports'>;

function modelCells(store: CsvStore, batch: StoredBatch) {
  const model = store.models.get(batch.modelId);
  const revision = store.models.revision(batch.revisionId);
  return {
    name: model?.name ?? '',
    number: revision?.number ?? 0,
    hash: revision?.hash ?? '',
  };
}

export function batchOrdersCsv(store: CsvStore, batch: StoredBatch): ExportFile {
  return {
    name: batchCsvName(batch, 'orders'),
    header:
      ORDER_REPORT_HEADER.slice(0, -CRLF.length) + ',' + BATCH_ORDER_EXTRA_COLUMNS.join(',') + CRLF,
    *lines() {
      const m = modelCells(store, batch);
      const extra =
        ',' + [batch.id, batch.modelId, m.name, m.number, m.hash].map((v) => csvCell(v)).join(',');
      for (const item of store.batches.items(batch.id)) {
        if (item.versionId === null) continue;
        for (const row of store.reports.iterateOrderReportRows({
          profileId: batch.profileId,
          versionId: item.versionId,
        }))
          yield formattedLine(formatOrderReportRow(row).slice(0, -CRLF.length) + extra + CRLF);
      }
    },
  };
}

export function batchSummaryCsv(store: CsvStore, batch: StoredBatch): ExportFile {
  return {
    name: batchCsvName(batch, 'summary'),
    header: BATCH_SUMMARY_COLUMNS.join(',') + CRLF,
    *lines() {
      const m = modelCells(store, batch);
      for (const item of store.batches.items(batch.id)) {
        const view = itemView(store, batch, item);
        const orders =
          item.versionId === null
            ? []
            : (store.versions.get(batch.profileId, item.versionId, { orders: true })?.orders ?? []);
        const cells: (string | number | null)[] = [
          batch.id,
          m.name,
          m.number,
          item.position + 1,
          item.strategyId,
          item.strategyName,
          view.failedOrPartial
            ? `${BATCH_ITEM_STATE_LABELS[item.state]}, failed or partial`
            : BATCH_ITEM_STATE_LABELS[item.state],
          view.reason,
          item.versionId,
          view.versionStatus,
          orders.length,
          orders.filter((o) => o.status === 'FILLED').length,
          orders.filter((o) => o.status === 'FAILED').length,
        ];
        yield formattedLine(cells.map((c) => csvCell(c)).join(',') + CRLF);
      }
    },
  };
}
