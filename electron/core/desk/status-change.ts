import type { DeskEvent } from '../../../shared/contract';
import type { VersionStatus } from '../../../shared/domain/constants';
import type { StrategyView } from '../../../shared/views';
import type { StoredStrategy } from '../store';
import type { DeskContext } from './context';
import { runningVersionId, strategyListItems } from './strategies';
import { strategyView, versionSummary } from './views';

type StatusChanged = Extract<DeskEvent, { type: 'version-status-changed' }>;

/** The newest sync of any strategy the app holds: the status bar's "last sync". */
export function lastSyncAt(store: DeskContext['store']): string | null {
  const synced = store.profiles
    .list()
    .flatMap((p) => store.strategies.list(p.id).map((s) => s.synced_at))
    .sort();
  return synced.at(-1) ?? null;
}

/**
 * A version's status changed (and was stored): the event with what every screen shows of it,
 * read from the store as the handlers would answer. Small on purpose: the version's orders and
 * positions stay out (its detail is one `versions.get` away), and so does a strategy too large
 * to carry (its page reads it). Null when the version is no longer
 * stored (deleted meanwhile): there is nothing left to show of it.
 */
export function versionStatusChanged(
  ctx: DeskContext,
  change: {
    profileId: string;
    strategyId: string;
    versionId: string;
    previousStatus: VersionStatus | null;
    status: VersionStatus | null;
    ended: boolean;
  },
): StatusChanged | null {
  const { store } = ctx;
  const { profileId, strategyId, versionId, ended } = change;
  const stored = store.versions.get(profileId, versionId);
  if (!stored) return null;
  const strategy = store.strategies.get(profileId, strategyId);
  return {
    type: 'version-status-changed',
    ...change,
    version: versionSummary(stored),
    strategy: strategyListItems(ctx, profileId).find((s) => s.id === strategyId) ?? null,
    appStatus: {
      runningVersions: store.versions.listActive().length,
      lastSyncAt: lastSyncAt(store),
    },
    settledStrategy: ended && strategy ? settledStrategy(ctx, profileId, strategy) : null,
  };
}

/** Beyond this many holdings and target lines, the strategy's page reads it instead. */
export const SETTLED_STRATEGY_MAX_LINES = 500;

function settledStrategy(
  ctx: DeskContext,
  profileId: string,
  strategy: StoredStrategy,
): StrategyView | null {
  const running = runningVersionId(ctx, profileId, strategy.id);
  const view = strategyView(ctx.store, profileId, strategy, running);
  const lines = view.holdings.length + (view.currentTarget?.positions.length ?? 0);
  return lines <= SETTLED_STRATEGY_MAX_LINES ? view : null;
}
