import type { DeskHandlers } from '../../../shared/contract';
import { recordStrategyRemoved } from '../activity';
import type { Store } from '../store';
import { notFound } from '../errors';
import type { StrategySync } from '../strategies/sync';
import type { Tracking } from '../tracking/tracking';
import { runningVersionId } from '../strategies/targets';
import { strategyListItems, strategyView } from '../views/strategy';

export interface StrategyServices {
  /** The whole store: a removal is recorded in the activity log. */
  store: Store;
  strategySync: StrategySync;
  tracking: Pick<Tracking, 'stopFollowing'>;
  /** A strategy read into the profile for the first time (a team's assignments may name it). */
  onAdded?: (profileId: string) => void;
}

export function strategyHandlers({
  store,
  strategySync,
  tracking,
  onAdded,
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
      return strategyListItems(store, profileId);
    },
    async add({ profileId, strategyId }) {
      const added = await sync(profileId, strategyId);
      onAdded?.(profileId);
      return added;
    },
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
