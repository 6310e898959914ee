import type { Store, StoredBatch, StoredBatchItem } from '../store';

/**
 * A batch after a stop or a crash (docs/batches.md). Runs at start-up, after the execution
 * journal's own reconciliation (pending and sent entries became unknown):
 *
 * - an item whose execution was journaled (named on the item, or found by its activity entry for
 *   an item left `sending`) takes its entry's state: accepted with its version, refused, or
 *   unknown for the manager to retry or dismiss; an entry withdrawn unsent (never sent: the app
 *   stopped before its turn, on a computer that did not restart) leaves it not sent, as does no
 *   entry at all, and so does a refused entry of an item ready again (answered 429, waiting to
 *   be sent again);
 * - every item still `ready` is not sent, and never will be without a new review;
 * - the batch that was sending reads "stopped after N of M: review the rest again"; one reviewed
 *   and never executed expires (its review is not sent after a restart either).
 *
 * Nothing is sent here. Returns the batches it changed.
 */
export function settleAtStartup(store: Store): string[] {
  const changed: string[] = [];
  for (const batch of store.batches.unfinished()) {
    if (batch.state === 'reviewed') {
      store.batches.setState(batch.id, 'reviewed', 'expired');
      changed.push(batch.id);
      continue;
    }
    if (batch.state !== 'sending') continue;
    store.transaction(() => {
      for (const item of store.batches.items(batch.id)) {
        if (item.state !== 'sending' && !(item.state === 'ready' && item.journalId !== null))
          continue;
        settleFromJournal(store, batch, item);
      }
      store.batches.moveAll(
        batch.id,
        'ready',
        'not-sent',
        'The app stopped before it was sent: nothing was sent. Review it again.',
      );
      store.batches.sendingOver(batch.id, 'stopped', 'the app stopped while it was sending');
    });
    changed.push(batch.id);
  }
  return changed;
}

/**
 * An item whose send was cut off (by a stop, or a fault of the app's own while sending) takes its
 * journal entry's state; no entry, or one withdrawn unsent, leaves it not sent.
 */
export function settleFromJournal(store: Store, batch: StoredBatch, item: StoredBatchItem): void {
  const journalId =
    item.journalId ?? store.batches.journaledFor(batch.profileId, item.strategyId, batch.id);
  const entry = journalId ? store.journal.get(journalId) : null;
  if (!entry || (entry.state === 'rejected' && entry.attempts === 0)) {
    store.batches.move(batch.id, item.position, item.state, 'not-sent', {
      reason: 'The app stopped before it was sent: nothing was sent. Review it again.',
    });
  } else if (item.state === 'ready' && entry.state === 'rejected') {
    // Ready again after its entry was refused: a 429 (which executes nothing), and the app
    // stopped while it waited to send it again. Nothing of it was executed.
    store.batches.move(batch.id, item.position, item.state, 'not-sent', {
      reason:
        'The app stopped while it waited to send it again after the service answered 429 (too many requests): nothing was executed. Review it again.',
    });
  } else if (entry.state === 'accepted') {
    store.batches.move(batch.id, item.position, item.state, 'accepted', {
      journalId: entry.id,
      versionId: entry.versionId,
    });
  } else if (entry.state === 'rejected') {
    store.batches.move(batch.id, item.position, item.state, 'refused', {
      journalId: entry.id,
      reason: entry.error ?? 'The service refused it.',
    });
  } else {
    store.batches.move(batch.id, item.position, item.state, 'unknown', {
      journalId: entry.id,
      reason: `${entry.error ?? 'The app stopped while sending it.'} Retry it with the same key or dismiss it from the strategy.`,
    });
  }
}
