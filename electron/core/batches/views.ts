import { createHash } from 'node:crypto';
import { Decimal } from 'decimal.js';
import { formatCount } from '../../../shared/figures';
import {
  BATCH_ITEM_STATES,
  SENT_OUTCOMES,
  sentOutcomeWords,
  type BatchItemState,
  type SentOutcome,
} from '../../../shared/batches/states';
import type {
  BatchItemView,
  BatchSummary,
  BatchTotals,
  BatchView,
  ItemReview,
} from '../../../shared/batches/views';
import {
  ORDER_SIDES,
  ORDER_STATUSES,
  TERMINAL_VERSION_STATUSES,
  type OrderSide,
  type OrderStatus,
} from '../../../shared/domain/constants';
import type { DeskEvent } from '../../../shared/contract';
import type { Store, StoredBatch, StoredBatchItem, StoredVersion } from '../store';

/** A batch as the contract carries it, read from the store (and the sender's pause). */

type ViewStore = Pick<Store, 'batches' | 'models' | 'versions'>;

/** Items that were journaled: what "N of M" counts as gone out. */
const WENT_OUT: ReadonlySet<BatchItemState> = new Set(['accepted', 'refused', 'unknown']);
/** Items the review included (not excluded, not unticked). */
const INCLUDED: ReadonlySet<BatchItemState> = new Set([
  'ready',
  'sending',
  'accepted',
  'refused',
  'unknown',
  'skipped',
  'not-sent',
]);

export function countsOf(items: readonly StoredBatchItem[]): Record<BatchItemState, number> {
  const counts = Object.fromEntries(BATCH_ITEM_STATES.map((s) => [s, 0])) as Record<
    BatchItemState,
    number
  >;
  for (const i of items) counts[i.state] += 1;
  return counts;
}

type Counts = Record<BatchItemState, number>;

const countIn = (counts: Counts, states: ReadonlySet<BatchItemState>) =>
  [...states].reduce((sum, state) => sum + counts[state], 0);

type Outcomes = Partial<Record<SentOutcome, number>>;

/** A review never executed that a newer one of the same strategies replaced (migration 019). */
export const SUPERSEDED = 'superseded by a newer review of one or more of its strategies';

/**
 * The batch in one line, as the view's heading, the notification and the end's entry say it: how
 * many went out and how they ended, failures first ("4 sent: 1 FAILED, 3 COMPLETE").
 */
export function batchWords(batch: StoredBatch, counts: Counts, outcomes: Outcomes): string {
  const included = formatCount(countIn(counts, INCLUDED));
  const sentCount = countIn(counts, WENT_OUT);
  const sent = formatCount(sentCount);
  const excluded = formatCount(
    BATCH_ITEM_STATES.reduce((sum, s) => sum + counts[s], 0) - countIn(counts, INCLUDED),
  );
  const ended = sentCount > 0 ? sentOutcomeWords(outcomes) : '';
  const how = ended === '' ? '' : ` (${ended})`;
  switch (batch.state) {
    case 'reviewed':
      return `reviewed: ${included} to send, ${excluded} excluded`;
    case 'expired':
      return batch.supersededBy === null
        ? 'reviewed before the app restarted and never executed: review again'
        : `${SUPERSEDED}: never executed, nothing sent from it. Sign the newer review`;
    case 'sending':
      return `sending: ${sent} of ${included} sent${how}`;
    case 'sent': {
      const skipped = countIn(counts, INCLUDED) - sentCount;
      return (
        `${skipped === 0 ? sent : `${sent} of ${included}`} sent` +
        (ended === '' ? '' : `: ${ended}`) +
        (skipped > 0 ? ` (${formatCount(skipped)} skipped)` : '')
      );
    }
    case 'cancelled':
      return `cancelled after ${sent} of ${included}${how}: review the rest again`;
    case 'halted':
      return `stopped at the first failure after ${sent} of ${included}${how}: review the rest again`;
    case 'stopped':
      // Why (a fault of the app's own, or a restart) where it was kept (from migration 012).
      return batch.stopReason === null
        ? `stopped after ${sent} of ${included}${how}: review the rest again`
        : `stopped after ${sent} of ${included}${how}: ${batch.stopReason}. Review the rest again`;
  }
}

function versionOf(store: ViewStore, profileId: string, item: StoredBatchItem) {
  return item.versionId === null
    ? null
    : store.versions.get(profileId, item.versionId, { orders: true });
}

function failureOf(version: StoredVersion | null): string | null {
  if (version === null || version.status === null) return null;
  if (!TERMINAL_VERSION_STATUSES.has(version.status)) return null;
  const failed = (version.orders ?? []).filter((o) => o.status === 'FAILED');
  if (version.status === 'FAILED')
    return `The rebalance failed${failed.length > 0 ? `: ${reasons(failed)}` : '.'}`;
  if (failed.length > 0) return `Partly failed: ${reasons(failed)}`;
  return null;
}

const reasons = (orders: readonly { symbol: string; status_reason: string | null }[]) =>
  orders.map((o) => `${o.symbol} (${o.status_reason ?? 'no reason given'})`).join('; ');

export function itemView(
  store: ViewStore,
  batch: StoredBatch,
  item: StoredBatchItem,
): BatchItemView {
  const version = versionOf(store, batch.profileId, item);
  const failure = failureOf(version);
  return {
    position: item.position,
    strategyId: item.strategyId,
    strategyName: item.strategyName,
    state: item.state,
    exclusion: item.exclusionKind,
    reason: failure ?? item.reason,
    needsAcknowledgement: item.needsAcknowledgement,
    acknowledged: item.acknowledged,
    review: item.review === null ? null : (JSON.parse(item.review) as ItemReview),
    journalId: item.journalId,
    versionId: item.versionId,
    versionStatus: version?.status ?? null,
    failedOrPartial: failure !== null,
    errorKind: item.errorKind,
  };
}

export function summaryOf(
  store: ViewStore,
  batch: StoredBatch,
  items: readonly StoredBatchItem[],
  pausedUntil: string | null,
): BatchSummary {
  return summaryOfCounts(store, batch, countsOf(items), pausedUntil);
}

/** The summary from the items' counts by state (a progress event counts them in SQL). */
export function summaryOfCounts(
  store: ViewStore,
  batch: StoredBatch,
  counts: Counts,
  pausedUntil: string | null,
): BatchSummary {
  const model = store.models.get(batch.modelId);
  const revision = store.models.revision(batch.revisionId);
  const outcomes = store.batches.sentOutcomes(batch.id);
  return {
    id: batch.id,
    profileId: batch.profileId,
    modelId: batch.modelId,
    modelName: model?.name ?? '',
    revisionId: batch.revisionId,
    revisionNumber: revision?.number ?? 1,
    revisionHash: revision?.hash ?? '',
    state: batch.state,
    supersededBy: batch.supersededBy,
    stopAtFirstFailure: batch.stopAtFirstFailure,
    concurrency: batch.concurrency,
    createdAt: batch.createdAt,
    startedAt: batch.startedAt,
    endedAt: batch.endedAt,
    counts: { ...counts },
    included: countIn(counts, INCLUDED),
    sent: countIn(counts, WENT_OUT),
    pausedUntil,
    outcomes: SENT_OUTCOMES.filter((o) => (outcomes[o] ?? 0) > 0).map((o) => ({
      outcome: o,
      count: outcomes[o]!,
    })),
    words: batchWords(batch, counts, outcomes),
  };
}

/**
 * A batch's progress as the hosts' event carries it, one event per announcement: the counts by
 * state (never every item again: a batch of hundreds moves hundreds of times), and the items that
 * moved since the last, in their order (none: the batch alone moved).
 */
export function progressEvent(
  store: ViewStore,
  batch: StoredBatch,
  pausedUntil: string | null,
  moved: readonly StoredBatchItem[],
): Extract<DeskEvent, { type: 'batch-progress' }> {
  const counts = { ...countsOf([]), ...store.batches.stateCounts(batch.id) };
  return {
    type: 'batch-progress',
    profileId: batch.profileId,
    batchId: batch.id,
    summary: summaryOfCounts(store, batch, counts, pausedUntil),
    items: moved.map((item) => itemView(store, batch, item)),
  };
}

/**
 * The orders of the batch's versions: exact quantities (decimal.js) per symbol and side, ordered,
 * filled and left, and the orders per status. Never a sum across symbols: shares of two symbols
 * do not add up to anything.
 */
export function totalsOf(
  store: ViewStore,
  batch: StoredBatch,
  items: readonly StoredBatchItem[],
): BatchTotals {
  const quantities = new Map<string, { ordered: Decimal; filled: Decimal }>();
  const statuses = new Map<OrderStatus, number>();
  for (const item of items) {
    for (const order of versionOf(store, batch.profileId, item)?.orders ?? []) {
      const key = `${order.symbol}\u0000${order.side}`;
      const sum = quantities.get(key) ?? { ordered: new Decimal(0), filled: new Decimal(0) };
      sum.ordered = sum.ordered.plus(order.order_quantity);
      if (order.filled_quantity !== null) sum.filled = sum.filled.plus(order.filled_quantity);
      quantities.set(key, sum);
      statuses.set(order.status, (statuses.get(order.status) ?? 0) + 1);
    }
  }
  const sideRank = (side: OrderSide) => ORDER_SIDES.indexOf(side);
  return {
    quantities: [...quantities.entries()]
      .map(([key, sum]) => {
        const [symbol, side] = key.split('\u0000') as [string, OrderSide];
        return {
          symbol,
          side,
          ordered: sum.ordered.toFixed(),
          filled: sum.filled.toFixed(),
          left: sum.ordered.minus(sum.filled).toFixed(),
        };
      })
      .sort((a, b) =>
        a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : sideRank(a.side) - sideRank(b.side),
      ),
    orders: ORDER_STATUSES.filter((s) => statuses.has(s)).map((status) => ({
      status,
      count: statuses.get(status)!,
    })),
  };
}

/** What an acknowledgement is given for: one line's warnings, as its review shows them. */
export type Warned = Pick<ItemReview, 'doubts' | 'warnings' | 'uncertain'>;

/**
 * The fingerprint of one line's warnings on one review, as the review shows and execute takes
 * (docs/batches.md): it names the review (the batch id), the strategy and the exact warnings
 * shown, so an acknowledgement given on another review, or for other warnings, lets nothing go.
 */
export function acknowledgementFingerprint(
  batchId: string,
  strategyId: string,
  review: Warned,
): string {
  return createHash('sha256')
    .update(JSON.stringify([batchId, strategyId, review.doubts, review.warnings, review.uncertain]))
    .digest('hex');
}

export function batchViewOf(
  store: ViewStore,
  batch: StoredBatch,
  pausedUntil: string | null,
): BatchView {
  const items = store.batches.items(batch.id);
  const ready = items.filter((i) => INCLUDED.has(i.state));
  return {
    ...summaryOf(store, batch, items, pausedUntil),
    sellsWhole: JSON.parse(batch.sellsWhole) as BatchView['sellsWhole'],
    acknowledgementNeeded: ready
      .filter((i) => i.needsAcknowledgement)
      .map((i) => {
        const review = JSON.parse(i.review!) as ItemReview;
        return {
          strategyId: i.strategyId,
          strategyName: i.strategyName,
          warnings: review.warnings,
          fingerprint: acknowledgementFingerprint(batch.id, i.strategyId, review),
        };
      }),
    totals: totalsOf(store, batch, items),
    items: items.map((i) => itemView(store, batch, i)),
  };
}
