import { formatCount } from '../figures';

/**
 * A batch's states and its items' (plain values, no zod: the renderer uses them).
 *
 * A batch: reviewed (nothing sent) -> sending -> sent (every included item went its way), or
 * cancelled, halted (stopped at the first failure, as the manager chose) or stopped (the app
 * stopped while sending), the rest not sent; expired: reviewed before the app restarted and never
 * executed. Its end (`endedAt`) comes once sending is over and
 * every version it created has ended.
 */
export const BATCH_STATES = [
  'reviewed',
  'sending',
  'sent',
  'cancelled',
  'halted',
  'stopped',
  'expired',
] as const;
export type BatchState = (typeof BATCH_STATES)[number];

export const BATCH_ITEM_STATES = [
  'excluded',
  'unticked',
  'ready',
  'sending',
  'accepted',
  'refused',
  'unknown',
  'skipped',
  'not-sent',
] as const;
export type BatchItemState = (typeof BATCH_ITEM_STATES)[number];

/** Why a strategy of the review cannot run, or did not. */
export const EXCLUSION_KINDS = [
  'liquidate-only',
  'rebalance-running',
  'unexecuted-version',
  'scope-missing',
  'in-sync',
  'unreadable',
  'invalid',
  'changed-since-review',
  'blocked',
  'not-acknowledged',
  'restricted',
] as const;
export type ExclusionKind = (typeof EXCLUSION_KINDS)[number];

export const BATCH_ITEM_STATE_LABELS: Record<BatchItemState, string> = {
  excluded: 'excluded',
  unticked: 'unticked',
  ready: 'to send',
  sending: 'sending',
  accepted: 'sent',
  refused: 'refused',
  unknown: 'outcome unknown',
  skipped: 'skipped',
  'not-sent': 'not sent: review again',
};

/**
 * How an item that went out ended, failures first (the order every count of them is told in):
 * refused by the service, outcome unknown, its version FAILED, COMPLETE with failed orders,
 * CANCELLED, not ended yet in the status its badge shows (or no status read yet), COMPLETE.
 */
export const SENT_OUTCOMES = [
  'refused',
  'unknown',
  'FAILED',
  'PARTIAL',
  'CANCELLED',
  'SCHEDULED',
  'PENDING',
  'CREATING_ORDERS',
  'IN_PROGRESS',
  'unread',
  'COMPLETE',
] as const;
export type SentOutcome = (typeof SENT_OUTCOMES)[number];

export const SENT_OUTCOME_LABELS: Record<SentOutcome, string> = {
  refused: 'refused',
  unknown: 'outcome unknown',
  FAILED: 'FAILED',
  PARTIAL: 'partly FAILED',
  CANCELLED: 'CANCELLED',
  // Not ended yet: the status each line's badge shows, so a count and its badges agree.
  SCHEDULED: 'SCHEDULED',
  PENDING: 'PENDING',
  CREATING_ORDERS: 'CREATING_ORDERS',
  IN_PROGRESS: 'IN_PROGRESS',
  unread: 'status not read yet',
  COMPLETE: 'COMPLETE',
};

/** "1 FAILED, 3 COMPLETE": the outcomes some item has, failures first. */
export function sentOutcomeWords(counts: Partial<Record<SentOutcome, number>>): string {
  return SENT_OUTCOMES.filter((o) => (counts[o] ?? 0) > 0)
    .map((o) => `${formatCount(counts[o]!)} ${SENT_OUTCOME_LABELS[o]}`)
    .join(', ');
}

/** The most strategies one batch reviews: a larger choice is reviewed a thousand at a time. */
export const MAX_BATCH_STRATEGIES = 1000;
