import type { BatchItemState, BatchState, SentOutcome } from '../../../../shared/batches/states';
import {
  batchOf,
  itemOf,
  type BatchRecord,
  type ItemOutcome,
  type ItemRecord,
  type NewBatchItem,
  type StoredBatch,
  type StoredBatchItem,
} from './batch-rows';
import type { RepositoryContext } from './context';

export type { ItemOutcome, NewBatchItem, StoredBatch, StoredBatchItem } from './batch-rows';

/**
 * Batches and their items (migration 011). Every move of an item is one conditional UPDATE from
 * the state it must be in, so two windows or two processes never both take the same item, and a
 * batch is executed once (reviewed -> sending).
 */

export type BatchesRepository = ReturnType<typeof batchesRepository>;

export function batchesRepository({ db, now }: RepositoryContext) {
  const prepareAll = () => ({
    insert: db.prepare(
      `INSERT INTO batches (id, profile_id, model_id, revision_id, state, stop_at_first_failure,
         concurrency, sells_whole, created_at) VALUES (?, ?, ?, ?, 'reviewed', 0, ?, ?, ?)`,
    ),
    insertItem: db.prepare(
      `INSERT INTO batch_items (batch_id, position, strategy_id, strategy_name, state,
         exclusion_kind, reason, rows, plan_key, needs_acknowledgement, review, preview, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    get: db.prepare<[string], BatchRecord>('SELECT * FROM batches WHERE id = ?'),
    list: db.prepare<[string], BatchRecord>(
      'SELECT * FROM batches WHERE profile_id = ? ORDER BY created_at DESC, id DESC LIMIT 200',
    ),
    inStates: db.prepare<[], BatchRecord>(
      `SELECT * FROM batches WHERE state IN ('reviewed', 'sending')
         OR (ended_at IS NULL AND state IN ('sent', 'cancelled', 'halted', 'stopped')) ORDER BY created_at`,
    ),
    items: db.prepare<[string], ItemRecord>(
      'SELECT * FROM batch_items WHERE batch_id = ? ORDER BY position',
    ),
    // From the index of the versions still rebalancing (versions_rebalancing, few), each looked
    // up by its batch item: the first of this batch's answers, never a walk of the batch's items.
    rebalancing: db
      .prepare<[string, string], number>(
        `SELECT EXISTS (SELECT 1 FROM versions v INDEXED BY versions_rebalancing
           JOIN batch_items i ON i.version_id = v.id
           WHERE v.executed_at IS NOT NULL
             AND v.status IN ('PENDING', 'CREATING_ORDERS', 'IN_PROGRESS')
             AND v.profile_id = ? AND i.batch_id = ? AND i.state = 'accepted')`,
      )
      .pluck(),
    stateCounts: db.prepare<[string], { state: BatchItemState; n: number }>(
      'SELECT state, count(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY state',
    ),
    // How each item that went out ended (shared/batches/states.ts SENT_OUTCOMES), counted here
    // because a progress event asks for it and a batch has hundreds of items.
    sentOutcomes: db.prepare<[string], { outcome: SentOutcome; n: number }>(
      `SELECT CASE
           WHEN i.state = 'refused' THEN 'refused'
           WHEN i.state = 'unknown' THEN 'unknown'
           WHEN v.status = 'FAILED' THEN 'FAILED'
           WHEN v.status = 'COMPLETE' AND EXISTS (SELECT 1 FROM orders o
             WHERE o.profile_id = v.profile_id AND o.version_id = v.id AND o.status = 'FAILED')
             THEN 'PARTIAL'
           WHEN v.status IN ('COMPLETE', 'CANCELLED', 'SCHEDULED', 'PENDING', 'CREATING_ORDERS',
             'IN_PROGRESS') THEN v.status
           ELSE 'unread' END AS outcome, count(*) AS n
         FROM batch_items i JOIN batches b ON b.id = i.batch_id
         LEFT JOIN versions v ON v.profile_id = b.profile_id AND v.id = i.version_id
         WHERE i.batch_id = ? AND i.state IN ('accepted', 'refused', 'unknown')
         GROUP BY outcome`,
    ),
    itemAt: db.prepare<[string, number], ItemRecord>(
      'SELECT * FROM batch_items WHERE batch_id = ? AND position = ?',
    ),
    byVersion: db.prepare<[string], ItemRecord>(
      'SELECT * FROM batch_items WHERE version_id = ? ORDER BY batch_id LIMIT 1',
    ),
    start: db.prepare(
      `UPDATE batches SET state = 'sending', started_at = ?, stop_at_first_failure = ?,
         concurrency = ? WHERE id = ? AND state = 'reviewed'`,
    ),
    setState: db.prepare(`UPDATE batches SET state = ? WHERE id = ? AND state = ?`),
    // The profile's other reviews not executed that would send a strategy this one reviewed.
    overlappingReviews: db
      .prepare<[string, string, string], string>(
        `SELECT DISTINCT b.id FROM batches b JOIN batch_items i ON i.batch_id = b.id
         WHERE b.profile_id = ? AND b.state = 'reviewed' AND b.id <> ? AND i.state = 'ready'
           AND i.strategy_id IN (SELECT strategy_id FROM batch_items WHERE batch_id = ?)
         ORDER BY b.id`,
      )
      .pluck(),
    supersede: db.prepare(
      `UPDATE batches SET state = 'expired', superseded_by = ? WHERE id = ? AND state = 'reviewed'`,
    ),
    sendingOver: db.prepare(
      `UPDATE batches SET state = ?, sending_over_at = ?, stop_reason = ?
         WHERE id = ? AND state = 'sending'`,
    ),
    reviewSeq: db.prepare('UPDATE batches SET review_seq = ? WHERE id = ?'),
    ended: db.prepare(
      'UPDATE batches SET ended_at = ?, end_seq = ? WHERE id = ? AND ended_at IS NULL',
    ),
    move: db.prepare(
      `UPDATE batch_items SET state = @to, updated_at = @at,
         reason = coalesce(@reason, reason), exclusion_kind = coalesce(@exclusionKind, exclusion_kind),
         journal_id = coalesce(@journalId, journal_id), version_id = coalesce(@versionId, version_id),
         error_kind = coalesce(@errorKind, error_kind)
       WHERE batch_id = @batchId AND position = @position AND state = @from`,
    ),
    moveAll: db.prepare(
      `UPDATE batch_items SET state = ?, reason = ?, updated_at = ?
       WHERE batch_id = ? AND state = ?`,
    ),
    // The entry journaled for an item before its turn (or again after a 429): restart.ts reads it.
    nameJournalEntry: db.prepare(
      `UPDATE batch_items SET journal_id = ?, updated_at = ?
       WHERE batch_id = ? AND position = ? AND state IN ('ready', 'sending')`,
    ),
    acknowledge: db.prepare(
      `UPDATE batch_items SET acknowledged = 1, updated_at = ? WHERE batch_id = ? AND position = ?`,
    ),
    // The execution a batch journaled for a strategy, found by its activity entry (written in the
    // transaction that journals it): how a restart learns what an item in `sending` became.
    journaledFor: db
      .prepare<[string, string, string], string>(
        `SELECT json_extract(payload, '$.journalId') FROM activity
         WHERE profile_id = ? AND strategy_id = ? AND kind = 'execution-sent'
           AND json_extract(payload, '$.batchId') = ? ORDER BY seq DESC LIMIT 1`,
      )
      .pluck(),
  });
  let statements: ReturnType<typeof prepareAll> | undefined;
  const q = () => (statements ??= prepareAll());

  return {
    /** A reviewed batch and its items, in one transaction. */
    create(
      fields: {
        id: string;
        profileId: string;
        modelId: string;
        revisionId: string;
        concurrency: number;
        sellsWhole: string;
      },
      items: readonly NewBatchItem[],
    ): StoredBatch {
      const at = now();
      db.transaction(() => {
        q().insert.run(
          fields.id,
          fields.profileId,
          fields.modelId,
          fields.revisionId,
          fields.concurrency,
          fields.sellsWhole,
          at,
        );
        for (const i of items)
          q().insertItem.run(
            fields.id,
            i.position,
            i.strategyId,
            i.strategyName,
            i.state,
            i.exclusionKind,
            i.reason,
            i.rows,
            i.planKey,
            i.needsAcknowledgement ? 1 : 0,
            i.review,
            i.preview,
            at,
          );
      })();
      return batchOf(q().get.get(fields.id)!);
    },
    get(id: string): StoredBatch | null {
      const r = q().get.get(id);
      return r ? batchOf(r) : null;
    },
    list(profileId: string): StoredBatch[] {
      return q().list.all(profileId).map(batchOf);
    },
    /** Batches not yet sent, or sent and not yet ended: what start-up and the tracker look at. */
    unfinished(): StoredBatch[] {
      return q().inStates.all().map(batchOf);
    },
    items(batchId: string): StoredBatchItem[] {
      return q().items.all(batchId).map(itemOf);
    },
    /** How many of the batch's items are in each state (only the states some item is in). */
    stateCounts(batchId: string): Partial<Record<BatchItemState, number>> {
      return Object.fromEntries(
        q()
          .stateCounts.all(batchId)
          .map((r) => [r.state, r.n]),
      );
    },
    /** How the items that went out ended, by outcome (only the outcomes some item has). */
    sentOutcomes(batchId: string): Partial<Record<SentOutcome, number>> {
      return Object.fromEntries(
        q()
          .sentOutcomes.all(batchId)
          .map((r) => [r.outcome, r.n]),
      );
    },
    /** Whether a version the batch created is still rebalancing: what its end waits for. */
    hasRebalancingVersion(profileId: string, batchId: string): boolean {
      return q().rebalancing.get(profileId, batchId) === 1;
    },
    item(batchId: string, position: number): StoredBatchItem | null {
      const r = q().itemAt.get(batchId, position);
      return r ? itemOf(r) : null;
    },
    /** The item that created this version, if a batch did. */
    itemOfVersion(versionId: string): StoredBatchItem | null {
      const r = q().byVersion.get(versionId);
      return r ? itemOf(r) : null;
    },
    /** reviewed -> sending, once: false when it was executed (or expired) already. */
    start(batchId: string, options: { stopAtFirstFailure: boolean; concurrency: number }): boolean {
      return (
        q().start.run(now(), options.stopAtFirstFailure ? 1 : 0, options.concurrency, batchId)
          .changes === 1
      );
    },
    /** The profile's other reviews, never executed, that would send a strategy `batchId` has. */
    overlappingReviews(profileId: string, batchId: string): string[] {
      return q().overlappingReviews.all(profileId, batchId, batchId);
    },
    /** reviewed -> expired, superseded by `newerId` (migration 019); false if not reviewed. */
    supersede(batchId: string, newerId: string): boolean {
      return q().supersede.run(newerId, batchId).changes === 1;
    },
    setState(batchId: string, from: BatchState, to: BatchState): boolean {
      return q().setState.run(to, batchId, from).changes === 1;
    },
    /** sending -> sent | cancelled | halted | stopped (a stopped batch with why: migration 012). */
    sendingOver(
      batchId: string,
      to: 'sent' | 'cancelled' | 'halted' | 'stopped',
      stopReason: string | null = null,
    ): boolean {
      return q().sendingOver.run(to, now(), stopReason, batchId).changes === 1;
    },
    setReviewSeq(batchId: string, seq: number): void {
      q().reviewSeq.run(seq, batchId);
    },
    /** The batch ended (its entry `seq`): once. */
    markEnded(batchId: string, seq: number | null): boolean {
      return q().ended.run(now(), seq, batchId).changes === 1;
    },
    /** Moves one item from `from` to `to`: false when it was not in `from` (taken elsewhere). */
    move(
      batchId: string,
      position: number,
      from: BatchItemState,
      to: BatchItemState,
      outcome: ItemOutcome = {},
    ): boolean {
      return (
        q().move.run({
          batchId,
          position,
          from,
          to,
          at: now(),
          reason: outcome.reason ?? null,
          exclusionKind: outcome.exclusionKind ?? null,
          journalId: outcome.journalId ?? null,
          versionId: outcome.versionId ?? null,
          errorKind: outcome.errorKind ?? null,
        }).changes === 1
      );
    },
    /** Every item in `from` moves to `to` with the same reason; how many did. */
    moveAll(batchId: string, from: BatchItemState, to: BatchItemState, reason: string): number {
      return q().moveAll.run(to, reason, now(), batchId, from).changes;
    },
    /** An item's execution was journaled (pending) ahead of its turn. */
    nameJournalEntry(batchId: string, position: number, journalId: string): void {
      q().nameJournalEntry.run(journalId, now(), batchId, position);
    },
    acknowledge(batchId: string, position: number): void {
      q().acknowledge.run(now(), batchId, position);
    },
    journaledFor(profileId: string, strategyId: string, batchId: string): string | null {
      return q().journaledFor.get(profileId, strategyId, batchId) ?? null;
    },
  };
}
