import type { BatchItemState, BatchState, ExclusionKind } from '../../../../shared/batches/states';

/**
 * A batch and its items as the batches repository returns them (batches.ts), from the rows of
 * migration 011 (012: a stopped batch's reason; 019: the review that superseded it).
 */

export interface StoredBatch {
  id: string;
  profileId: string;
  modelId: string;
  revisionId: string;
  state: BatchState;
  stopAtFirstFailure: boolean;
  concurrency: number;
  /** JSON: the review's "sells X whole in N strategies". */
  sellsWhole: string;
  createdAt: string;
  startedAt: string | null;
  sendingOverAt: string | null;
  endedAt: string | null;
  reviewSeq: number | null;
  endSeq: number | null;
  /** Why a stopped batch stopped (migration 012): a fault of the app's own, or a restart. */
  stopReason: string | null;
  /** The newer review that superseded this one, never executed (migration 019). */
  supersededBy: string | null;
}

export interface StoredBatchItem {
  batchId: string;
  position: number;
  strategyId: string;
  strategyName: string;
  state: BatchItemState;
  exclusionKind: ExclusionKind | null;
  reason: string | null;
  /** JSON: the rows reviewed, sent as they are. */
  rows: string;
  planKey: string | null;
  needsAcknowledgement: boolean;
  acknowledged: boolean;
  /** JSON: the review's line (shared/batches ItemReview). */
  review: string | null;
  /** JSON: the full confirmation (ExecutePreview) the line opens. */
  preview: string | null;
  journalId: string | null;
  versionId: string | null;
  errorKind: string | null;
  updatedAt: string;
}

export type NewBatchItem = Omit<
  StoredBatchItem,
  'batchId' | 'updatedAt' | 'journalId' | 'versionId' | 'errorKind' | 'acknowledged'
>;

export interface BatchRecord {
  id: string;
  profile_id: string;
  model_id: string;
  revision_id: string;
  state: BatchState;
  stop_at_first_failure: number;
  concurrency: number;
  sells_whole: string;
  created_at: string;
  started_at: string | null;
  sending_over_at: string | null;
  ended_at: string | null;
  review_seq: number | null;
  end_seq: number | null;
  stop_reason: string | null;
  superseded_by: string | null;
}

export interface ItemRecord {
  batch_id: string;
  position: number;
  strategy_id: string;
  strategy_name: string;
  state: BatchItemState;
  exclusion_kind: ExclusionKind | null;
  reason: string | null;
  rows: string;
  plan_key: string | null;
  needs_acknowledgement: number;
  acknowledged: number;
  review: string | null;
  preview: string | null;
  journal_id: string | null;
  version_id: string | null;
  error_kind: string | null;
  updated_at: string;
}

export const batchOf = (r: BatchRecord): StoredBatch => ({
  id: r.id,
  profileId: r.profile_id,
  modelId: r.model_id,
  revisionId: r.revision_id,
  state: r.state,
  stopAtFirstFailure: r.stop_at_first_failure === 1,
  concurrency: r.concurrency,
  sellsWhole: r.sells_whole,
  createdAt: r.created_at,
  startedAt: r.started_at,
  sendingOverAt: r.sending_over_at,
  endedAt: r.ended_at,
  reviewSeq: r.review_seq,
  endSeq: r.end_seq,
  stopReason: r.stop_reason,
  supersededBy: r.superseded_by,
});

export const itemOf = (r: ItemRecord): StoredBatchItem => ({
  batchId: r.batch_id,
  position: r.position,
  strategyId: r.strategy_id,
  strategyName: r.strategy_name,
  state: r.state,
  exclusionKind: r.exclusion_kind,
  reason: r.reason,
  rows: r.rows,
  planKey: r.plan_key,
  needsAcknowledgement: r.needs_acknowledgement === 1,
  acknowledged: r.acknowledged === 1,
  review: r.review,
  preview: r.preview,
  journalId: r.journal_id,
  versionId: r.version_id,
  errorKind: r.error_kind,
  updatedAt: r.updated_at,
});

/** What an item's move writes besides its state. */
export interface ItemOutcome {
  reason?: string | null;
  exclusionKind?: ExclusionKind | null;
  journalId?: string | null;
  versionId?: string | null;
  errorKind?: string | null;
}
