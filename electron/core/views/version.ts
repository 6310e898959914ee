import { isUncertain } from '../../../shared/draft';
import type { PredictionOutcomeView } from '../../../shared/views';
import type { Store } from '../store';

/**
 * A prediction's outcome as the contract carries it. A version and a journal entry are plain
 * functions of their rows (shared/version-views.ts).
 */

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
