import type { DeskEvent } from '../../../shared/contract';
import type { VersionStatus } from '../../../shared/domain/constants';
import { versionSummary } from '../../../shared/version-views';
import type { StrategyListItem, StrategyView } from '../../../shared/views';
import type { Store, StoredStrategy } from '../store';
import { knownTargetWithCheck, runningVersionId } from '../strategies/targets';

/**
 * A strategy as the screens show it: its page, its sidebar line, the status bar's counts, and
 * the announcement of a version's status change, which carries all three. The known target and
 * the holdings against it are domain queries (strategies/targets.ts).
 */

/** The repositories a strategy's or a version's view is read from. */
export type ViewStore = Pick<Store, 'strategies' | 'versions' | 'predictions' | 'unexecuted'>;

export function strategyView(
  store: ViewStore,
  profileId: string,
  strategy: StoredStrategy,
  runningVersionId: string | null,
  /** The known target and its check, when the caller worked them out from the same rows. */
  worked?: Pick<ReturnType<typeof knownTargetWithCheck>, 'target' | 'check'>,
): StrategyView {
  const holdings = strategy.positions ?? store.strategies.holdings(profileId, strategy.id);
  const known = worked ?? knownTargetWithCheck(store, profileId, strategy, holdings);
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
    currentTarget: known.target,
    targetCheck: known.check,
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

/**
 * The sidebar's lines of a profile's strategies: running, liquidate-only, needing attention (an
 * execution of unknown outcome, or a failed rebalance not yet acknowledged: versions/failures.ts).
 */
export function strategyListItems(
  store: Pick<Store, 'strategies' | 'versions' | 'failures' | 'journal'>,
  profileId: string,
): StrategyListItem[] {
  const running = new Set(store.versions.listActive({ profileId }).map((v) => v.strategy_id));
  const attention = new Set(
    store.journal
      .listInFlight(profileId)
      .filter((e) => e.state === 'unknown')
      .map((e) => e.strategyId),
  );
  const failed = store.failures.unacknowledgedByStrategy(profileId);
  return store.strategies
    .list(profileId)
    .map((s) => listItemOf(s, running.has(s.id), attention.has(s.id), failed.get(s.id)));
}

/** One strategy's line of the list, as `strategyListItems` gives it, read for it alone. */
export function strategyListItem(
  store: Pick<Store, 'strategies' | 'versions' | 'failures' | 'journal'>,
  profileId: string,
  strategyId: string,
): StrategyListItem | null {
  const strategy = store.strategies.get(profileId, strategyId);
  if (!strategy) return null;
  return listItemOf(
    strategy,
    store.versions.listActive({ profileId, strategyId }).length > 0,
    store.journal
      .listInFlight(profileId)
      .some((e) => e.strategyId === strategyId && e.state === 'unknown'),
    store.failures.unacknowledgedByStrategy(profileId).get(strategyId),
  );
}

function listItemOf(
  s: StoredStrategy,
  running: boolean,
  unknownExecution: boolean,
  failedVersionIds: string[] | undefined,
): StrategyListItem {
  return {
    id: s.id,
    name: s.name,
    isLiquidateOnly: s.is_liquidate_only,
    running,
    needsAttention: unknownExecution || failedVersionIds !== undefined,
    failedVersionIds: failedVersionIds ?? [],
    syncedAt: s.synced_at,
  };
}

/** The status bar's count: executions of unknown outcome, and failures not yet acknowledged. */
export function attentionCounts(store: Pick<Store, 'journal' | 'failures'>): {
  needsAttention: number;
  failedUnacknowledged: number;
} {
  const failed = store.failures.countUnacknowledged();
  return { needsAttention: store.journal.countUnknown() + failed, failedUnacknowledged: failed };
}

type StatusChanged = Extract<DeskEvent, { type: 'version-status-changed' }>;

/**
 * The status bar's figures an event carries (a status change, the journal's change), as
 * `app.status` gives them now: each one indexed query.
 */
export function statusFigures(
  store: Pick<Store, 'versions' | 'strategies' | 'journal' | 'failures'>,
): StatusChanged['appStatus'] {
  return {
    runningVersions: store.versions.countActive(),
    lastSyncAt: store.strategies.lastSyncedAt(),
    ...attentionCounts(store),
  };
}

export interface StatusChange {
  profileId: string;
  strategyId: string;
  versionId: string;
  previousStatus: VersionStatus | null;
  status: VersionStatus | null;
  ended: boolean;
}

/**
 * A version's status changed (and was stored): the event with what every screen shows of it,
 * read from the store as the handlers would answer. Small on purpose: the version's orders and
 * positions stay out (its detail is one `versions.get` away), and so does a strategy too large
 * to carry (its page reads it). Null when the version is no longer stored (deleted meanwhile):
 * there is nothing left to show of it.
 */
export function versionStatusChanged(
  store: ViewStore & Pick<Store, 'journal' | 'failures'>,
  change: StatusChange,
): StatusChanged | null {
  const { profileId, strategyId, versionId, ended } = change;
  const stored = store.versions.get(profileId, versionId);
  if (!stored) return null;
  const strategy = store.strategies.get(profileId, strategyId);
  return {
    type: 'version-status-changed',
    ...change,
    version: versionSummary(stored),
    strategy: strategyListItem(store, profileId, strategyId),
    // A rebalance that ended FAILED needs attention at once, not at the next status read.
    appStatus: statusFigures(store),
    settledStrategy: ended && strategy ? settledStrategy(store, profileId, strategy) : null,
  };
}

/** Beyond this many holdings and target lines, the strategy's page reads it instead. */
export const SETTLED_STRATEGY_MAX_LINES = 500;

function settledStrategy(
  store: ViewStore,
  profileId: string,
  strategy: StoredStrategy,
): StrategyView | null {
  const running = runningVersionId(store, profileId, strategy.id);
  const view = strategyView(store, profileId, strategy, running);
  const lines = view.holdings.length + (view.currentTarget?.positions.length ?? 0);
  return lines <= SETTLED_STRATEGY_MAX_LINES ? view : null;
}
