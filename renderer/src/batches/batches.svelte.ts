import { SvelteSet } from 'svelte/reactivity';
import type { BatchItemView, BatchSummary, BatchView } from '../../../shared/batches/views';
import type { DeskApi, DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { ExecutePreview } from '../../../shared/views';
import { systemNotify, type Notify } from '../lib/notify';
import type { ExportRun } from '../lib/stores/export-run.svelte';

type Api = DeskApi['batches'];
/** What executing a review sends: the batch's id aside. */
export type ExecuteChoice = Omit<Parameters<Api['execute']>[0], 'batchId'>;

/**
 * The batch shown (its review, then its progress to the end): reviewed, executed, cancelled and
 * exported through here; the session routes the desk's batch events and the tracker's status
 * changes here, and the batch view renders from it. The end is told once, by a desktop
 * notification.
 */
export class Batches {
  current = $state<BatchView | null>(null);
  /** Batches whose end was told (a late event of an ended batch says nothing again). */
  private readonly told = new SvelteSet<string>();

  constructor(
    private readonly api: DeskApi,
    private readonly notify: Notify = systemNotify,
  ) {}

  show(batch: BatchView | null): void {
    this.current = batch;
    if (batch?.endedAt) this.told.add(batch.id);
  }

  async open(batchId: string): Promise<void> {
    this.show(await this.api.batches.get({ batchId }));
  }

  /** One review of a model revision for these strategies, shown. */
  async review(input: Parameters<Api['review']>[0]): Promise<BatchView> {
    const batch = await this.api.batches.review(input);
    this.show(batch);
    return batch;
  }

  /** The profile's batches, newest first. */
  list(profileId: string): Promise<BatchSummary[]> {
    return this.api.batches.list({ profileId });
  }

  /** One line's confirmation, as the review made it (read only). */
  preview(strategyId: string): Promise<ExecutePreview> {
    return this.api.batches.preview({ batchId: this.shown().id, strategyId });
  }

  /** Sends the signed review; the batch shown goes on sending. */
  async execute(choice: ExecuteChoice): Promise<BatchView> {
    const started = await this.api.batches.execute({ batchId: this.shown().id, ...choice });
    this.show(started);
    return started;
  }

  async cancel(): Promise<void> {
    this.show(await this.api.batches.cancel({ batchId: this.shown().id }));
  }

  /** The batch's orders or its summary as CSV, followed by `run`. */
  export(kind: 'orders' | 'summary', run: ExportRun): Promise<void> {
    const batchId = this.shown().id;
    return run.start((exportId) =>
      kind === 'orders'
        ? this.api.batches.exportOrders({ batchId, exportId })
        : this.api.batches.exportSummary({ batchId, exportId }),
    );
  }

  private shown(): BatchView {
    if (!this.current)
      throw new DeskError({ kind: 'invalid-input', message: 'No batch is shown: open one first.' });
    return this.current;
  }

  apply(event: DeskEvent): void {
    const batch = this.current;
    if (event.type === 'batch-progress') {
      if (!batch || batch.id !== event.batchId) {
        this.tellEnd(event.batchId, event.summary);
        return;
      }
      const moved: Record<number, BatchItemView> = {};
      for (const item of event.items) moved[item.position] = item;
      const items =
        event.items.length > 0 ? batch.items.map((i) => moved[i.position] ?? i) : batch.items;
      this.current = { ...batch, ...event.summary, items };
      this.tellEnd(batch.id, event.summary);
      // The totals come from the versions' orders: read once the batch ended.
      if (event.summary.endedAt !== null && batch.endedAt === null) void this.open(batch.id);
      return;
    }
    if (event.type === 'version-status-changed' && batch) {
      if (!batch.items.some((i) => i.versionId === event.versionId)) return;
      this.current = {
        ...batch,
        items: batch.items.map((i) =>
          i.versionId === event.versionId ? { ...i, versionStatus: event.status } : i,
        ),
      };
    }
  }

  private tellEnd(
    batchId: string,
    summary: { endedAt: string | null; modelName: string; words: string },
  ) {
    if (summary.endedAt === null || this.told.has(batchId)) return;
    this.told.add(batchId);
    this.notify(`Batch of “${summary.modelName}” ended`, summary.words);
  }
}

/** The session's store of batches, made the first time a screen shows a batch. */
export function batchesOf(session: { readonly api: DeskApi; batches: Batches | null }): Batches {
  return (session.batches ??= new Batches(session.api));
}
