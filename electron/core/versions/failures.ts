import { TERMINAL_VERSION_STATUSES, type VersionStatus } from '../../../shared/domain/constants';
import { DeskError } from '../../../shared/errors';
import type { Store } from '../store';
import { notFound } from '../errors';

/**
 * A failed or partly failed execution (an executed version that ended FAILED or has a FAILED
 * order) needs the manager's attention, in the status bar and on its strategy's dot, until they
 * acknowledge it on the version. Only an ended rebalance can be acknowledged: until then more
 * orders may still fail.
 */
export function acknowledgeFailure(
  store: Pick<Store, 'versions' | 'failures'>,
  ref: { profileId: string; strategyId: string; versionId: string },
  at: string,
): void {
  const { profileId, strategyId, versionId } = ref;
  const stored = store.versions.get(profileId, versionId);
  if (!stored || stored.strategy_id !== strategyId) throw notFound('This version');
  if (!stored.status || !TERMINAL_VERSION_STATUSES.has(stored.status as VersionStatus))
    throw new DeskError({
      kind: 'invalid-input',
      message:
        `This rebalance has not ended yet (status ${stored.status ?? 'unknown'}): more orders may ` +
        'still fail. Acknowledge it once it has ended.',
    });
  if (!store.failures.hasFailed(profileId, versionId))
    throw new DeskError({
      kind: 'invalid-input',
      message:
        'This version did not fail and has no failed order: there is nothing to acknowledge.',
    });
  store.failures.acknowledge(profileId, versionId, at);
}
