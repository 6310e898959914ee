import { toDecimal } from '../../../shared/decimal';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/constants';
import { checkTarget, hasEndWitness } from '../../../shared/draft/target-check';
import type { Profile, StoredStrategy, StoredVersion } from '../store';
import type { JournalEntry, Store } from '../store';
import type {
  CurrentTarget,
  JournalEntryView,
  ProfileView,
  StrategyView,
  TargetCheckView,
  VersionDetail,
  VersionSummary,
} from '../../../shared/views';

/** Store rows to the views the contract carries. */

/** The repositories a strategy's or a version's view is read from. */
export type ViewStore = Pick<Store, 'strategies' | 'versions' | 'predictions' | 'unexecuted'>;

export function profileView(
  profile: Profile,
  secret: { storage: 'keychain' | 'session'; present: boolean },
): ProfileView {
  return {
    id: profile.id,
    name: profile.name,
    baseUrl: profile.baseUrl,
    clientId: profile.clientId,
    environment: profile.environment,
    secretStorage: secret.storage,
    hasSecret: secret.present,
    grantedScopes: profile.grantedScopes,
    createdAt: profile.createdAt,
  };
}

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
 * as the app saw that version end stands for it (see settleTarget in confirmation.ts).
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

export function versionSummary(v: StoredVersion): VersionSummary {
  return {
    id: v.id,
    strategyId: v.strategy_id,
    status: v.status,
    cashWeight: v.cash_weight,
    oldCashWeight: v.old_cash_weight,
    scheduledFor: v.scheduled_for,
    executedAt: v.executed_at,
    insertedAt: v.inserted_at,
    origin: v.origin,
    syncedAt: v.synced_at,
  };
}

export function versionDetail(
  v: StoredVersion,
  tracking: boolean,
  followed: Pick<VersionDetail, 'trackingProblem' | 'statusSeen'>,
): VersionDetail {
  return {
    ...versionSummary(v),
    orders: v.orders ?? [],
    positions: v.positions ?? [],
    tracking,
    ...followed,
  };
}

export function journalEntryView(e: JournalEntry): JournalEntryView {
  return {
    id: e.id,
    strategyId: e.strategyId,
    draftId: e.draftId,
    // "sent" is an in-process detail: to the manager it is still being sent.
    state: e.state === 'sent' ? 'pending' : e.state,
    versionId: e.versionId,
    error: e.error,
    attempts: e.attempts,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
  };
}
