import { expect } from 'vitest';
import type { DeskEvent } from '../../shared/contract';
import type { BatchView } from '../../shared/batches/views';
import { sandboxAdmin, type DeskHarness } from './desk-harness';

/** Helpers of the batch tests: the sandbox's own count of executions, a batch's end. */

export async function acceptedAtService(baseUrl: string): Promise<Record<string, number>> {
  const counters = (await sandboxAdmin(baseUrl, 'GET', '/sandbox/counters')) as {
    data: { executions_accepted: Record<string, number> };
  };
  return counters.data.executions_accepted;
}

/** What each strategy gained at the service between two counts. */
export function gained(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [id, n] of Object.entries(after)) {
    const d = n - (before[id] ?? 0);
    if (d !== 0) out[id] = d;
  }
  return out;
}

export const batchEnded = (batchId: string) => (e: DeskEvent) =>
  e.type === 'batch-progress' && e.batchId === batchId && e.summary.endedAt !== null;

/** Sends the batch and waits for sending to be over and the batch to end. */
export async function executeToEnd(
  h: DeskHarness,
  batch: BatchView,
  options: { unticked?: string[]; stopAtFirstFailure?: boolean; concurrency?: number } = {},
): Promise<BatchView> {
  const started = await h.desk.batches.execute({
    batchId: batch.id,
    unticked: options.unticked ?? [],
    acknowledged: acknowledgementsOf(batch),
    stopAtFirstFailure: options.stopAtFirstFailure ?? false,
    ...(options.concurrency !== undefined && { concurrency: options.concurrency }),
  });
  expect(started.state).toBe('sending');
  await h.desk.batchFlow.sending(batch.id);
  await h.waitFor(batchEnded(batch.id), 30_000);
  return h.desk.batches.get({ batchId: batch.id });
}

/** Every uncertain line of the review acknowledged as it shows them (its warnings' fingerprint). */
export const acknowledgementsOf = (batch: Pick<BatchView, 'acknowledgementNeeded'>) =>
  batch.acknowledgementNeeded.map(({ strategyId, fingerprint }) => ({ strategyId, fingerprint }));

export const itemOf = (batch: BatchView, strategyId: string) => {
  const item = batch.items.find((i) => i.strategyId === strategyId);
  expect(item, `an item for ${strategyId}`).toBeDefined();
  return item!;
};

/** How many items were sending in each progress of the batch the screens were told of since `from`. */
export const sendingTold = (h: Pick<DeskHarness, 'events'>, batchId: string, from: number) =>
  h.events
    .slice(from)
    .flatMap((e) =>
      e.type === 'batch-progress' && e.batchId === batchId ? [e.summary.counts.sending ?? 0] : [],
    );
