import { z } from 'zod';
import {
  decimalString,
  orderSide,
  orderStatus,
  timestamp,
  uuid,
  versionStatus,
} from '../domain/resources';
import { targetDoubt, targetSourceView } from '../views';
import { BATCH_ITEM_STATES, BATCH_STATES, EXCLUSION_KINDS, SENT_OUTCOMES } from './states';

/**
 * A batch as the contract carries it (zod; the renderer takes only the types): one model
 * revision reviewed once for many strategies of a profile, each included one executed through
 * the one execution flow (docs/batches.md).
 */

export const batchState = z.enum(BATCH_STATES);
export const batchItemState = z.enum(BATCH_ITEM_STATES);
export const exclusionKind = z.enum(EXCLUSION_KINDS);
export const sentOutcome = z.enum(SENT_OUTCOMES);

const symbolWeight = z.object({ symbol: z.string(), from: decimalString, to: decimalString });
const targetCashChange = z.object({
  cashBefore: decimalString,
  cashAfter: decimalString,
  changes: z.array(symbolWeight),
});

/** One strategy's line of the review: what executing the model does to it. */
export const itemReview = z.object({
  target: targetSourceView,
  adds: z.array(symbolWeight),
  changes: z.array(symbolWeight),
  removes: z.array(symbolWeight),
  /** Symbols whose action cannot be predicted (the target is in doubt): the weight asked. */
  uncertain: z.array(symbolWeight),
  /** Held symbols the execution sells whole, with the quantity held. */
  sellsWhole: z.array(z.object({ symbol: z.string(), quantity: decimalString })),
  /** Target cash before (null: no target known) and after. */
  oldCash: decimalString.nullable(),
  newCash: decimalString,
  doubts: z.array(targetDoubt),
  warnings: z.array(z.string()),
  /** The model applied with another target cash (shared/draft/cash.ts): the weights it moved. */
  targetCash: targetCashChange.nullable().optional(),
});
export type ItemReview = z.infer<typeof itemReview>;

export const batchItemView = z.object({
  position: z.number().int().nonnegative(),
  strategyId: uuid,
  strategyName: z.string(),
  state: batchItemState,
  /** Why it cannot run (excluded), or what came of it (skipped, refused, unknown, not sent). */
  exclusion: exclusionKind.nullable(),
  reason: z.string().nullable(),
  /** Its target is uncertain: executing it takes the manager's acknowledgement, by name. */
  needsAcknowledgement: z.boolean(),
  acknowledged: z.boolean(),
  review: itemReview.nullable(),
  journalId: uuid.nullable(),
  versionId: uuid.nullable(),
  /** The version's status as last polled (the tracker's status changes move it). */
  versionStatus: versionStatus.nullable(),
  /** The version ended failed, or with failed orders: `reason` names them. */
  failedOrPartial: z.boolean(),
  errorKind: z.string().nullable(),
});
export type BatchItemView = z.infer<typeof batchItemView>;

export const acknowledgementNeeded = z.object({
  strategyId: uuid,
  strategyName: z.string(),
  warnings: z.array(z.string()),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AcknowledgementNeeded = z.infer<typeof acknowledgementNeeded>;

/** The manager's word for one uncertain strategy of a review, as `batches.execute` takes it. */
export const acknowledgement = z
  .object({
    strategyId: uuid,
    /** The fingerprint of the review's warnings acknowledged (`acknowledgementNeeded`). */
    fingerprint: z.string().regex(/^[0-9a-f]{64}$/, 'must be a fingerprint (64 hex digits)'),
  })
  .strict();
export type Acknowledgement = z.infer<typeof acknowledgement>;

/**
 * The batch's orders, never summed across symbols (shares of two symbols do not add up): the
 * quantities per symbol and side, by symbol then BUY before SELL, and the orders per status.
 */
export const batchTotals = z.object({
  quantities: z.array(
    z.object({
      symbol: z.string(),
      side: orderSide,
      ordered: decimalString,
      filled: decimalString,
      /** Ordered and not filled. */
      left: decimalString,
    }),
  ),
  /** Every status some order has, in the service's order of statuses. */
  orders: z.array(z.object({ status: orderStatus, count: z.number().int().positive() })),
});
export type BatchTotals = z.infer<typeof batchTotals>;

export const batchSummary = z.object({
  id: uuid,
  profileId: uuid,
  modelId: uuid,
  modelName: z.string(),
  revisionId: uuid,
  revisionNumber: z.number().int().positive(),
  revisionHash: z.string(),
  state: batchState,
  stopAtFirstFailure: z.boolean(),
  concurrency: z.number().int().positive(),
  createdAt: timestamp,
  startedAt: timestamp.nullable(),
  endedAt: timestamp.nullable(),
  /** Items per state (every state named, 0 when none). */
  counts: z.record(batchItemState, z.number().int().nonnegative()),
  included: z.number().int().nonnegative(),
  /** Executions journaled (sent or about to be): N of "stopped after N of M". */
  sent: z.number().int().nonnegative(),
  /** Sending waits for the service's rate limit until then (null: not waiting). */
  pausedUntil: timestamp.nullable(),
  /**
   * How the items that went out ended, failures first ("1 FAILED", then "3 COMPLETE"): only the
   * outcomes some item has.
   */
  outcomes: z.array(z.object({ outcome: sentOutcome, count: z.number().int().positive() })),
  /** How the batch reads in one line ("4 sent: 1 FAILED, 3 COMPLETE"), failures first. */
  words: z.string(),
  /**
   * The newer review of one or more of its strategies that superseded this one, never executed
   * (or null).
   */
  supersededBy: z.string().uuid().nullable(),
});
export type BatchSummary = z.infer<typeof batchSummary>;

export const batchView = batchSummary.extend({
  /** "sells TSLA whole in 14 strategies", by the number of strategies, then the symbol. */
  sellsWhole: z.array(
    z.object({
      symbol: z.string(),
      strategies: z.number().int().positive(),
      names: z.array(z.string()),
    }),
  ),
  /**
   * The included strategies whose target is uncertain, each needing the manager's word: the
   * warnings shown and their fingerprint, which `batches.execute` takes back as the
   * acknowledgement of exactly these warnings on this review.
   */
  acknowledgementNeeded: z.array(acknowledgementNeeded),
  totals: batchTotals,
  items: z.array(batchItemView),
});
export type BatchView = z.infer<typeof batchView>;
