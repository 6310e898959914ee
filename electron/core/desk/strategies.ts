import type { DeskHandlers } from '../../../shared/contract';
import type { StrategyListItem, StrategyView } from '../../../shared/views';
import { recordStrategyRemoved, recordStrategyStored } from '../activity';
import type { DeskContext } from './context';
import { notFound } from './errors';
import { strategyView } from './views';

/** The version of a strategy still rebalancing, if any (newest first). */
export function runningVersionId(
  ctx: DeskContext,
  profileId: string,
  strategyId: string,
): string | null {
  const running = ctx.store.versions
    .listActive()
    .filter((v) => v.profile_id === profileId && v.strategy_id === strategyId);
  return running.at(-1)?.id ?? null;
}

/** The sidebar's lines of a profile's strategies: running, liquidate-only, needing attention. */
export function strategyListItems(ctx: DeskContext, profileId: string): StrategyListItem[] {
  const active = ctx.store.versions.listActive().filter((v) => v.profile_id === profileId);
  const attention = ctx.executions.inFlight(profileId).filter((e) => e.state === 'unknown');
  return ctx.store.strategies.list(profileId).map((s) => ({
    id: s.id,
    name: s.name,
    isLiquidateOnly: s.is_liquidate_only,
    running: active.some((v) => v.strategy_id === s.id),
    needsAttention: attention.some((e) => e.strategyId === s.id),
    syncedAt: s.synced_at,
  }));
}

export function strategyHandlers(ctx: DeskContext): DeskHandlers['strategies'] {
  const view = (profileId: string, strategyId: string) => {
    const stored = ctx.store.strategies.get(profileId, strategyId);
    if (!stored) throw notFound('This strategy');
    return strategyView(ctx.store, profileId, stored, runningVersionId(ctx, profileId, strategyId));
  };
  /**
   * Refreshes under way: a second refresh of the same strategy joins the one in flight (one
   * request, one answer), and the manager can cancel it while it waits on a slow service.
   */
  const refreshing = new Map<
    string,
    { controller: AbortController; done: Promise<StrategyView> }
  >();
  /** Reads the strategy with its holdings from the service; the cache changes only on success. */
  const sync = (profileId: string, strategyId: string): Promise<StrategyView> => {
    const key = `${profileId}/${strategyId}`;
    const running = refreshing.get(key);
    if (running) return running.done;
    const controller = new AbortController();
    // Started on the next microtask, so it is registered before it can settle.
    const done = Promise.resolve().then(async () => {
      try {
        const strategy = await ctx.connections.call(profileId, (c) =>
          c.getStrategy(strategyId, { includePositions: true, signal: controller.signal }),
        );
        recordStrategyStored(ctx.store, profileId, strategyId, () =>
          ctx.store.strategies.upsert(profileId, strategy, { syncedAt: ctx.now() }),
        );
        return view(profileId, strategyId);
      } finally {
        refreshing.delete(key);
      }
    });
    refreshing.set(key, { controller, done });
    return done;
  };

  return {
    async list({ profileId }) {
      return strategyListItems(ctx, profileId);
    },
    add: ({ profileId, strategyId }) => sync(profileId, strategyId),
    refresh: ({ profileId, strategyId }) => sync(profileId, strategyId),
    /** Stops a refresh under way (it fails with kind `cancelled`); the cache keeps the last sync. */
    async cancelRefresh({ profileId, strategyId }) {
      refreshing.get(`${profileId}/${strategyId}`)?.controller.abort();
      return { ok: true as const };
    },
    async get({ profileId, strategyId }) {
      return view(profileId, strategyId);
    },
    async remove({ profileId, strategyId }) {
      for (const v of ctx.store.versions.listActive()) {
        if (v.profile_id === profileId && v.strategy_id === strategyId) ctx.tracker.untrack(v.id);
      }
      if (
        !recordStrategyRemoved(ctx.store, profileId, strategyId, () =>
          ctx.store.strategies.remove(profileId, strategyId),
        )
      )
        throw notFound('This strategy');
      return { ok: true as const };
    },
  };
}
