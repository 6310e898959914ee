import { createHash } from 'node:crypto';
import type { Acknowledgement, ItemReview } from '../../../shared/batches/views';
import { DeskError } from '../../../shared/errors';
import type { StoredBatchItem } from '../store';

/**
 * The manager's word for the uncertain lines of one review (docs/batches.md): each
 * acknowledgement names the review (the batch id), the strategy and the exact warnings shown,
 * so one given on another review, or for other warnings, never lets a strategy go.
 */

type Warned = Pick<ItemReview, 'doubts' | 'warnings' | 'uncertain'>;

/** The fingerprint of one line's warnings on one review, as the review shows and execute takes. */
export function acknowledgementFingerprint(
  batchId: string,
  strategyId: string,
  review: Warned,
): string {
  return createHash('sha256')
    .update(JSON.stringify([batchId, strategyId, review.doubts, review.warnings, review.uncertain]))
    .digest('hex');
}

const refused = (message: string) =>
  new DeskError({ kind: 'stale-not-acknowledged', message: `${message} Nothing was sent.` });

const them = (n: number) => (n === 1 ? 'it' : 'them');

/**
 * Checks an execute's acknowledgements against the review: every one given must be for an
 * uncertain line of this review with its fingerprint, and every uncertain line sent must have
 * one. Throws a DeskError (stale-not-acknowledged) naming the strategies otherwise.
 */
export function checkAcknowledgements(
  batchId: string,
  items: readonly StoredBatchItem[],
  unticked: ReadonlySet<string>,
  given: readonly Acknowledgement[],
): void {
  const byStrategy = new Map(items.map((i) => [i.strategyId, i]));
  const foreign = given.filter((a) => {
    const item = byStrategy.get(a.strategyId);
    if (!item || item.state !== 'ready' || !item.needsAcknowledgement || item.review === null)
      return true;
    const review = JSON.parse(item.review) as Warned;
    return a.fingerprint !== acknowledgementFingerprint(batchId, item.strategyId, review);
  });
  if (foreign.length > 0) {
    const names = foreign.map((a) => byStrategy.get(a.strategyId)?.strategyName ?? a.strategyId);
    throw refused(
      `The acknowledgement of ${names.join(', ')} was not given on this review for the warnings it shows (another review's, or other warnings): read this review's warnings and acknowledge ${them(foreign.length)} again.`,
    );
  }
  const acknowledged = new Set(given.map((a) => a.strategyId));
  const missing = items.filter(
    (i) =>
      i.state === 'ready' &&
      i.needsAcknowledgement &&
      !unticked.has(i.strategyId) &&
      !acknowledged.has(i.strategyId),
  );
  if (missing.length > 0)
    throw refused(
      `The target of ${missing.map((i) => i.strategyName).join(', ')} is uncertain: acknowledge ${them(missing.length)} by name, or untick ${them(missing.length)}.`,
    );
}
