import { isUncertain } from '../../../shared/draft';
import type {
  JournalEntryView,
  PredictionOutcomeView,
  VersionDetail,
  VersionSummary,
} from '../../../shared/views';
import type { JournalEntry, Store, StoredVersion } from '../store';

/** A version, an execution's journal entry and a prediction's outcome as the contract carries them. */

export function versionSummary(v: StoredVersion): VersionSummary {
  return {
    id: v.id,
    strategyId: v.strategy_id,
    status: v.status,
    cashWeight: v.cash_weight,
    oldCashWeight: v.old_cash_weight,
    scheduledFor: v.scheduled_for,
    executedAt: v.executed_at,
    insertedAt: v.inserted_at,
    origin: v.origin,
    syncedAt: v.synced_at,
  };
}

/** `followed`: what following the version says of it (tracking/tracking.ts, detailFields). */
export function versionDetail(
  v: StoredVersion,
  followed: Pick<VersionDetail, 'tracking' | 'trackingProblem' | 'statusSeen'>,
): VersionDetail {
  return {
    ...versionSummary(v),
    orders: v.orders ?? [],
    positions: v.positions ?? [],
    ...followed,
  };
}

export function journalEntryView(e: JournalEntry): JournalEntryView {
  return {
    id: e.id,
    strategyId: e.strategyId,
    draftId: e.draftId,
    // "sent" is an in-process detail: to the manager it is still being sent.
    state: e.state === 'sent' ? 'pending' : e.state,
    versionId: e.versionId,
    error: e.error,
    attempts: e.attempts,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}

/** How the service's answer compared with the prediction recorded before the execution was sent. */
export function predictionOutcome(
  store: Pick<Store, 'predictions'>,
  profileId: string,
  versionId: string,
): PredictionOutcomeView | null {
  const record = store.predictions.forVersion(profileId, versionId);
  if (!record || record.versionId === null || record.differences === null) return null;
  // Records made before doubts were part of the prediction: their target state says it.
  const uncertain = record.targetState !== 'known' || record.prediction.some(isUncertain);
  return {
    versionId: record.versionId,
    targetState: record.targetState,
    uncertain,
    knownVersionId: record.knownVersionId,
    differences: record.differences.map((d) => ({ ...d, expected: d.expected ?? uncertain })),
    comparedAt: record.comparedAt ?? record.createdAt,
  };
}
