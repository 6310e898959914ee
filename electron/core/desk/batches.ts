import { randomUUID } from 'node:crypto';
import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { Batches } from '../batches/batches';
import { batchCsvName, batchOrdersCsv, batchSummaryCsv, writeBatchCsv } from '../batches/csv';
import type { Store } from '../store';
import type { ChooseExportPath } from './reports';

export interface BatchServices {
  store: Store;
  batches: Batches;
  choosePath: ChooseExportPath;
}

/** The `batches` area: each handler passes the call to the batch flow (core/batches). */
export function batchHandlers({
  store,
  batches,
  choosePath,
}: BatchServices): DeskHandlers['batches'] {
  const exported = async (batchId: string, what: 'orders' | 'summary') => {
    const batch = store.batches.get(batchId);
    if (!batch)
      throw new DeskError({ kind: 'not-found', message: 'This batch is not in this app.' });
    const path = await choosePath(batchCsvName(batch, what));
    if (path === null) return null;
    const content =
      what === 'orders' ? batchOrdersCsv(store, batch) : batchSummaryCsv(store, batch);
    const written = await writeBatchCsv(path, content);
    return { exportId: randomUUID(), path, ...written };
  };
  return {
    review: async (input) => batches.review(input),
    get: async ({ batchId }) => batches.get(batchId),
    list: async ({ profileId }) => batches.list(profileId),
    preview: async ({ batchId, strategyId }) => batches.preview(batchId, strategyId),
    execute: async (input) => batches.execute(input),
    cancel: async ({ batchId }) => batches.cancel(batchId),
    exportOrders: async ({ batchId }) => exported(batchId, 'orders'),
    exportSummary: async ({ batchId }) => exported(batchId, 'summary'),
  };
}
