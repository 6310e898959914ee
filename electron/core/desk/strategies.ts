import type { DeskHandlers } from '../../../shared/contract';
import type { StrategyListItem } from '../../../shared/views';
import { recordStrategyRemoved } from '../activity';
import type { ExecutionJournal } from '../execution/execute';
import type { Store } from '../store';
import { notFound } from './errors';
import type { StrategySync } from '../strategies/sync';
import type { Tracking } from '../tracking/tracking';
import { strategyView } from '../views/strategy';

/** The version of a strategy still rebalancing, if any (newest first). */
export function runningVersionId(
  store: Pick<Store, 'versions'>,
  profileId: string,
  strategyId: string,
): string | null {
  const running = store.versions.listActive({ profileId, strategyId });
  return running.at(-1)?.id ?? null;
}

/**
 * The sidebar's lines of a profile's strategies: running, liquidate-only, needing attention (an
 * execution of unknown outcome, or a failed rebalance not yet acknowledged: versions/failures.ts).
 */
export function strategyListItems(
  store: Pick<Store, 'strategies' | 'versions' | 'failures'>,
  executions: Pick<ExecutionJournal, 'inFlight'>,
  profileId: string,
): StrategyListItem[] {
  const active = store.versions.listActive({ profileId });
  const attention = executions.inFlight(profileId).filter((e) => e.state === 'unknown');
  const failed = store.failures.unacknowledgedByStrategy(profileId);
  return store.strategies.list(profileId).map((s) => ({
    id: s.id,
    name: s.name,
    isLiquidateOnly: s.is_liquidate_only,
    running: active.some((v) => v.strategy_id === s.id),
    needsAttention: attention.some((e) => e.strategyId === s.id) || failed.has(s.id),
    failedVersionIds: failed.get(s.id) ?? [],
    syncedAt: s.synced_at,
  }));
}

export interface StrategyServices {
  /** The whole store: a removal is recorded in the activity log. */
  store: Store;
  executions: Pick<ExecutionJournal, 'inFlight'>;
  strategySync: StrategySync;
  tracking: Pick<Tracking, 'stopFollowing'>;
}

export function strategyHandlers({
  store,
  executions,
  strategySync,
  tracking,
}: StrategyServices): DeskHandlers['strategies'] {
  const view = (profileId: string, strategyId: string) => {
    const stored = store.strategies.get(profileId, strategyId);
    if (!stored) throw notFound('This strategy');
    return strategyView(store, profileId, stored, runningVersionId(store, profileId, strategyId));
  };
  /** Reads the strategy with its holdings from the service; the cache changes only on success. */
  const sync = async (profileId: string, strategyId: string) => {
    await strategySync.sync(profileId, strategyId);
    return view(profileId, strategyId);
  };

  return {
    async list({ profileId }) {
      return strategyListItems(store, executions, profileId);
    },
    add: ({ profileId, strategyId }) => sync(profileId, strategyId),
    refresh: ({ profileId, strategyId }) => sync(profileId, strategyId),
    /** Stops a refresh under way (it fails with kind `cancelled`); the cache keeps the last sync. */
    async cancelRefresh({ profileId, strategyId }) {
      strategySync.cancel(profileId, strategyId);
      return { ok: true as const };
    },
    async get({ profileId, strategyId }) {
      return view(profileId, strategyId);
    },
    async remove({ profileId, strategyId }) {
      tracking.stopFollowing({ profileId, strategyId });
      if (
        !recordStrategyRemoved(store, profileId, strategyId, () =>
          store.strategies.remove(profileId, strategyId),
        )
      )
        throw notFound('This strategy');
      return { ok: true as const };
    },
  };
}
