import type { DeskHandlers } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { Batches } from '../batches/batches';
import { batchOrdersCsv, batchSummaryCsv } from '../batches/csv';
import type { Exports } from '../exports';
import type { Store } from '../store';

export interface BatchServices {
  store: Store;
  batches: Batches;
  exports: Exports;
}

/** The `batches` area: each handler passes the call to the batch flow (core/batches). */
export function batchHandlers({ store, batches, exports }: BatchServices): DeskHandlers['batches'] {
  const exported = async (batchId: string, what: 'orders' | 'summary', exportId?: string) => {
    const batch = store.batches.get(batchId);
    if (!batch)
      throw new DeskError({ kind: 'not-found', message: 'This batch is not in this app.' });
    const file = what === 'orders' ? batchOrdersCsv(store, batch) : batchSummaryCsv(store, batch);
    return exports.write(file, exportId);
  };
  return {
    review: async (input) => batches.review(input),
    get: async ({ batchId }) => batches.get(batchId),
    list: async ({ profileId }) => batches.list(profileId),
    preview: async ({ batchId, strategyId }) => batches.preview(batchId, strategyId),
    execute: async (input) => batches.execute(input),
    cancel: async ({ batchId }) => batches.cancel(batchId),
    exportOrders: async ({ batchId, exportId }) => exported(batchId, 'orders', exportId),
    exportSummary: async ({ batchId, exportId }) => exported(batchId, 'summary', exportId),
  };
}
