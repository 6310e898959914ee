import { toDecimal } from '../../../shared/decimal';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/constants';
import { checkTarget, hasEndWitness } from '../../../shared/draft/target-check';
import type { Store, StoredStrategy } from '../store';
import type {
  CurrentTarget,
  StrategyListItem,
  StrategyView,
  TargetCheckView,
} from '../../../shared/views';

/** A strategy as the contract carries it: its page, its sidebar line, its known target. */

/** The repositories a strategy's or a version's view is read from. */
export type ViewStore = Pick<Store, 'strategies' | 'versions' | 'predictions' | 'unexecuted'>;

export function currentTargetOf(
  store: ViewStore,
  profileId: string,
  strategyId: string,
): CurrentTarget | null {
  const latest = store.versions.latestExecuted(profileId, strategyId);
  if (!latest) return null;
  return {
    versionId: latest.id,
    executedAt: latest.executed_at,
    status: latest.status,
    cashWeight: latest.cash_weight,
    positions: (latest.positions ?? store.versions.positions(profileId, latest.id))
      .filter((p) => !toDecimal(p.weight).isZero())
      .map((p) => ({ symbol: p.symbol, weight: p.weight })),
    origin: latest.origin,
  };
}

/**
 * The cached holdings against the known target; null when no target is known here. For a known
 * version whose orders carry no end time (all IGNORED, or none), the strategy's update time read
 * as the app saw that version end stands for it (see settleTarget in tracking/tracking.ts).
 */
export function targetCheckOf(
  store: ViewStore,
  profileId: string,
  strategy: StoredStrategy,
  target: CurrentTarget | null,
  holdings: readonly { symbol: string; quantity: string }[],
): TargetCheckView | null {
  if (!target) return null;
  const version = store.versions.get(profileId, target.versionId, { orders: true });
  if (!version) return null;
  const facts = {
    positions: target.positions,
    orders: version.orders ?? [],
    status: version.status,
    executedAt: version.executed_at,
    insertedAt: version.inserted_at,
  };
  const ended = version.status !== null && TERMINAL_VERSION_STATUSES.has(version.status);
  if (!ended || hasEndWitness(facts.orders))
    return checkTarget(facts, holdings, strategy.updated_at);
  const settledAt = store.predictions.baselineOf(profileId, strategy.id, version.id);
  return checkTarget({ ...facts, settledAt }, holdings, strategy.updated_at);
}

export function strategyView(
  store: ViewStore,
  profileId: string,
  strategy: StoredStrategy,
  runningVersionId: string | null,
): StrategyView {
  const holdings = strategy.positions ?? store.strategies.holdings(profileId, strategy.id);
  const currentTarget = currentTargetOf(store, profileId, strategy.id);
  return {
    profileId,
    id: strategy.id,
    name: strategy.name,
    description: strategy.description,
    feePercent: strategy.fee_percent,
    isLiquidateOnly: strategy.is_liquidate_only,
    liquidateOnlyReason: strategy.liquidate_only_reason,
    holdings: holdings.map(({ id, symbol, quantity, inserted_at, updated_at }) => ({
      id,
      symbol,
      quantity,
      inserted_at,
      updated_at,
    })),
    currentTarget,
    targetCheck: targetCheckOf(store, profileId, strategy, currentTarget, holdings),
    updatedAt: strategy.updated_at,
    runningVersionId,
    unexecutedVersions: store.unexecuted
      .listForStrategy(profileId, strategy.id)
      .map(({ versionId, learnedFrom, learnedAt, scheduledFor, insertedAt, readAt }) => ({
        versionId,
        learnedFrom,
        learnedAt,
        scheduledFor,
        insertedAt,
        readAt,
      })),
    syncedAt: strategy.synced_at,
  };
}

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
  store: Pick<Store, 'strategies' | 'versions' | 'failures' | 'journal'>,
  profileId: string,
): StrategyListItem[] {
  const active = store.versions.listActive({ profileId });
  const attention = store.journal.listInFlight(profileId).filter((e) => e.state === 'unknown');
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
