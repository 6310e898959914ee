import type { DeskEvent } from '../../../shared/contract';
import type { VersionStatus } from '../../../shared/domain/constants';
import type { StrategyView } from '../../../shared/views';
import type { Store, StoredStrategy } from '../store';
import { attentionCounts } from '../versions/failures';
import { runningVersionId, strategyListItems, strategyView } from '../views/strategy';
import { versionSummary } from '../views/version';

type StatusChanged = Extract<DeskEvent, { type: 'version-status-changed' }>;

export interface StatusChange {
  profileId: string;
  strategyId: string;
  versionId: string;
  previousStatus: VersionStatus | null;
  status: VersionStatus | null;
  ended: boolean;
}

/** What the announcement is read from. */
export interface StatusChangeDeps {
  store: Pick<
    Store,
    'versions' | 'strategies' | 'predictions' | 'unexecuted' | 'journal' | 'failures'
  >;
}

/**
 * A version's status changed (and was stored): the event with what every screen shows of it,
 * read from the store as the handlers would answer. Small on purpose: the version's orders and
 * positions stay out (its detail is one `versions.get` away), and so does a strategy too large
 * to carry (its page reads it). Null when the version is no longer
 * stored (deleted meanwhile): there is nothing left to show of it.
 */
export function versionStatusChanged(
  deps: StatusChangeDeps,
  change: StatusChange,
): StatusChanged | null {
  const { store } = deps;
  const { profileId, strategyId, versionId, ended } = change;
  const stored = store.versions.get(profileId, versionId);
  if (!stored) return null;
  const strategy = store.strategies.get(profileId, strategyId);
  return {
    type: 'version-status-changed',
    ...change,
    version: versionSummary(stored),
    strategy: strategyListItems(store, profileId).find((s) => s.id === strategyId) ?? null,
    appStatus: {
      runningVersions: store.versions.countActive(),
      lastSyncAt: store.strategies.lastSyncedAt(),
      // A rebalance that ended FAILED needs attention at once, not at the next status read.
      ...attentionCounts(store),
    },
    settledStrategy: ended && strategy ? settledStrategy(store, profileId, strategy) : null,
  };
}

/** Beyond this many holdings and target lines, the strategy's page reads it instead. */
export const SETTLED_STRATEGY_MAX_LINES = 500;

function settledStrategy(
  store: StatusChangeDeps['store'],
  profileId: string,
  strategy: StoredStrategy,
): StrategyView | null {
  const running = runningVersionId(store, profileId, strategy.id);
  const view = strategyView(store, profileId, strategy, running);
  const lines = view.holdings.length + (view.currentTarget?.positions.length ?? 0);
  return lines <= SETTLED_STRATEGY_MAX_LINES ? view : null;
}
