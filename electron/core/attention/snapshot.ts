import type { StatusChange } from '../views/strategy';
import type { Store } from '../store';

/**
 * When a followed version's rebalance ends, tracking reads the strategy at once through the one
 * strategy read (tracking.ts `settleTarget`, strategies/sync.ts) and tells `onVersionEnded`;
 * the holdings that read stored become the strategy's snapshot, what the queue's "changed since
 * the last rebalance ended" compares with. When that read failed (the stored holdings are older
 * than the end), the snapshot before is dropped and none is taken: comparing with it would show
 * the rebalance's own fills as changes.
 */
export function snapshotAtRebalanceEnd(
  store: Pick<Store, 'attention' | 'strategies' | 'versions'>,
  ended: Pick<StatusChange, 'profileId' | 'strategyId' | 'versionId' | 'status'>,
  at: string,
): 'taken' | 'not-read' | 'gone' {
  const { profileId, strategyId, versionId } = ended;
  const strategy = store.strategies.get(profileId, strategyId);
  const version = store.versions.get(profileId, versionId);
  if (!strategy || !version) return 'gone';
  const ref = { profileId, strategyId, versionId, status: ended.status ?? 'unknown', at };
  if (strategy.synced_at < version.synced_at) {
    store.attention.dropSnapshot(profileId, strategyId);
    return 'not-read';
  }
  return store.attention.takeSnapshot(ref) ? 'taken' : 'gone';
}
