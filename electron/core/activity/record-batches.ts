import type { SentOutcome } from '../../../shared/batches/states';
import type { Store, StoredBatch, StoredBatchItem, StoredRevision } from '../store';
import type { NewActivityEntry } from '../store/repositories/activity';

/**
 * A batch's entries in the profile's activity log (docs/batches.md): its review as the manager
 * executed it (the model revision and its hash, every strategy included or excluded with the
 * reason, the acknowledgements given) and its end (the outcome counts). Each execution the batch
 * sends refers to the review's entry.
 */

const profileNameOf = (store: Store, profileId: string) =>
  store.profiles.get(profileId)?.name ?? '';

/**
 * The entry of a batch's review as the manager executed it (appended in the transaction that
 * starts sending: batches.ts); `items` as that transaction left them.
 */
export function batchReviewedEntry(
  store: Store,
  batch: StoredBatch,
  model: { id: string; name: string },
  revision: StoredRevision,
  acknowledgedTogether: boolean,
  items: readonly StoredBatchItem[],
): NewActivityEntry {
  const line = (i: StoredBatchItem) => ({
    strategyId: i.strategyId,
    strategyName: i.strategyName,
  });
  return {
    profileId: batch.profileId,
    kind: 'batch-reviewed',
    payload: {
      profileName: profileNameOf(store, batch.profileId),
      batchId: batch.id,
      modelId: model.id,
      modelName: model.name,
      revisionId: revision.id,
      revisionNumber: revision.number,
      hash: revision.hash,
      stopAtFirstFailure: batch.stopAtFirstFailure,
      concurrency: batch.concurrency,
      included: items.filter((i) => i.state === 'ready').map(line),
      excluded: items
        .filter((i) => i.state === 'excluded' || i.state === 'unticked')
        .map((i) => ({
          ...line(i),
          reason:
            i.state === 'unticked' ? 'Unticked by the manager.' : (i.reason ?? i.exclusionKind),
          kind: i.state === 'unticked' ? 'unticked' : i.exclusionKind,
        })),
      acknowledged: items.filter((i) => i.state === 'ready' && i.acknowledged).map(line),
      // One act for the whole named list ("I accept … for these N strategies"), or one by one.
      acknowledgedTogether,
    },
  };
}

/**
 * The batch ended: its counts per item state and how the items that went out ended (refused and
 * unknown among `counts`, the versions' ends as `versionStatuses`: FAILED, PARTIAL, CANCELLED,
 * COMPLETE), once (`markEnded` refuses a second time).
 */
export function recordBatchEnded(
  store: Store,
  batch: StoredBatch,
  outcome: {
    counts: Record<string, number>;
    outcomes: Partial<Record<SentOutcome, number>>;
    words: string;
  },
): boolean {
  const { refused: _refused, unknown: _unknown, ...versionStatuses } = outcome.outcomes;
  return store.activity.record((append) => {
    const entry = append({
      profileId: batch.profileId,
      kind: 'batch-ended',
      refersTo: batch.reviewSeq,
      payload: {
        profileName: profileNameOf(store, batch.profileId),
        batchId: batch.id,
        state: batch.state,
        counts: outcome.counts,
        versionStatuses,
        words: outcome.words,
      },
    });
    if (!store.batches.markEnded(batch.id, entry.seq)) throw new BatchAlreadyEnded();
    return true;
  });
}

/** Thrown inside the transaction to roll back a second end entry (another caller ended it). */
export class BatchAlreadyEnded extends Error {
  constructor() {
    super('This batch ended already.');
  }
}
