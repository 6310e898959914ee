import { z } from 'zod';
import { method, profileRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { executePreview, exportIdField, exportResult } from '../views';
import { MAX_BATCH_STRATEGIES } from './states';
import { acknowledgement, batchItemView, batchSummary, batchView } from './views';

/**
 * Batches (docs/batches.md): one model revision reviewed once for many strategies of a profile,
 * each included strategy executed through the one execution flow, followed together.
 */
export const batchesContract = {
  /**
   * Reads every strategy fresh and reviews the revision for each: ready with what executing
   * does, or excluded with the reason. Nothing is sent.
   */
  review: method(
    z
      .object({
        profileId: uuid,
        revisionId: uuid,
        strategyIds: z.array(uuid).min(1).max(MAX_BATCH_STRATEGIES),
        concurrency: z.number().int().min(1).max(8).optional(),
        /** "Apply the model with target cash X %": its rows scaled to leave X % cash. */
        targetCash: z.string().trim().min(1).max(20).optional(),
      })
      .strict(),
    batchView,
  ),
  get: method(z.object({ batchId: uuid }).strict(), batchView),
  /** The profile's batches, newest first. */
  list: method(profileRef, z.array(batchSummary)),
  /** The full confirmation of one strategy of the review (the same as a draft's). */
  preview: method(z.object({ batchId: uuid, strategyId: uuid }).strict(), executePreview),
  /**
   * Sends the reviewed batch (once; kind confirmation-outdated when it was executed or its
   * review expired), minus the strategies unticked. Every uncertain strategy included must be
   * acknowledged by id with the fingerprint of this review's warnings for it (kind
   * stale-not-acknowledged otherwise, and for an acknowledgement from another review or of other
   * warnings). `acknowledgedTogether`: given as one act for the whole named list. Answers once
   * sending began; progress comes as `batch-progress` events.
   */
  execute: method(
    z
      .object({
        batchId: uuid,
        unticked: z.array(uuid).max(MAX_BATCH_STRATEGIES),
        acknowledged: z.array(acknowledgement).max(MAX_BATCH_STRATEGIES),
        acknowledgedTogether: z.boolean().optional(),
        stopAtFirstFailure: z.boolean(),
        concurrency: z.number().int().min(1).max(8).optional(),
      })
      .strict(),
    batchView,
  ),
  /** Stops sending; what was sent is followed, the rest is not sent. */
  cancel: method(z.object({ batchId: uuid }).strict(), batchView),
  /** Every order of the batch's versions as CSV (the order report's columns, batch and model). */
  exportOrders: method(
    z.object({ batchId: uuid, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
  /** One row per strategy: its outcome and counts. */
  exportSummary: method(
    z.object({ batchId: uuid, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
};

export const batchesEvents = [
  /**
   * A batch moved: its summary now, and the items that moved since it was last told, in their
   * order (none: the batch itself moved).
   */
  z.object({
    type: z.literal('batch-progress'),
    profileId: uuid,
    batchId: uuid,
    summary: batchSummary,
    items: z.array(batchItemView),
  }),
] as const;
