import type { Order, Version, VersionPosition } from '../../../shared/domain/resources';
import { ORDER_STATUSES } from '../../../shared/domain/constants';
import { Decimal, formatDecimal, toDecimal } from '../../../shared/decimal';
import { isUncertain } from '../../../shared/draft/prediction';
import { versionFields } from '../../../shared/version-views';
import type { Store } from '../store';
import type { Profile } from '../store';
import type { StoredVersion } from '../store';

/**
 * The recording calls the desk's flows make: each runs the action's own bookkeeping and appends
 * its entry in the same transaction, so neither is ever written without the other. Payloads hold
 * what a reviewer needs later, named as it was at the time; never a secret or a token.
 */

type ProfileFacts = Pick<Profile, 'id' | 'name' | 'environment' | 'baseUrl' | 'clientId'>;

const profileFacts = (p: ProfileFacts) => ({
  profileName: p.name,
  environment: p.environment,
  baseUrl: p.baseUrl,
  clientId: p.clientId,
});

function profileNameOf(store: Store, profileId: string): string {
  return store.profiles.get(profileId)?.name ?? '';
}

function strategyNameOf(store: Store, profileId: string, strategyId: string): string | null {
  return store.strategies.nameOf(profileId, strategyId);
}

const positionsOf = (positions: readonly VersionPosition[] | undefined) =>
  (positions ?? []).map((p) => ({
    symbol: p.symbol,
    oldWeight: p.old_weight,
    weight: p.weight,
    action: p.action,
  }));

const ordersOf = (orders: readonly Order[] | undefined) =>
  (orders ?? []).map((o) => ({
    id: o.id,
    date: o.date,
    side: o.side,
    symbol: o.symbol,
    status: o.status,
    statusReason: o.status_reason,
    orderQuantity: o.order_quantity,
    orderValue: o.order_value,
    filledQuantity: o.filled_quantity,
    filledValue: o.filled_value,
    filledAveragePrice: o.filled_average_price,
  }));

/** A version's content as the service last gave it (orders and positions included). */
export function versionContent(version: Version | StoredVersion) {
  return {
    id: version.id,
    ...versionFields(version),
    positions: positionsOf(version.positions),
    orders: ordersOf(version.orders),
  };
}

/** A profile was created: the profile row and its entry. */
export function recordProfileCreated(store: Store, create: () => Profile): Profile {
  return store.activity.record((append) => {
    const profile = create();
    append({ profileId: profile.id, kind: 'profile-created', payload: profileFacts(profile) });
    return profile;
  });
}

/**
 * A profile's name, address or client id changed (each change named from → to). The manager's
 * word that the stored secret may go to a new address is kept too (only when it was given).
 */
export function recordProfileChanged(
  store: Store,
  before: Profile,
  change: { secretReplaced: boolean; storedSecretMoves?: boolean },
  update: () => Profile | null,
): Profile | null {
  return store.activity.record((append) => {
    // Only a new secret: the row is unchanged, and the entry says the secret was replaced.
    const after = update() ?? store.profiles.get(before.id);
    if (!after) return after;
    const changes = (['name', 'baseUrl', 'clientId'] as const)
      .filter((field) => before[field] !== after[field])
      .map((field) => ({ field, from: before[field], to: after[field] }));
    if (changes.length > 0 || change.secretReplaced)
      append({
        profileId: after.id,
        kind: 'profile-changed',
        payload: {
          ...profileFacts(after),
          changes,
          secretReplaced: change.secretReplaced,
          ...(change.storedSecretMoves === true && { storedSecretToNewAddress: true }),
        },
      });
    return after;
  });
}

export function recordProfileRemoved(store: Store, profileId: string, remove: () => boolean) {
  return store.activity.record((append) => {
    const profile = store.profiles.get(profileId);
    const removed = remove();
    if (removed && profile)
      append({ profileId, kind: 'profile-removed', payload: profileFacts(profile) });
    return removed;
  });
}

export function recordStrategyRemoved(
  store: Store,
  profileId: string,
  strategyId: string,
  remove: () => boolean,
): boolean {
  return store.activity.record((append) => {
    const strategyName = strategyNameOf(store, profileId, strategyId);
    const removed = remove();
    if (removed)
      append({
        profileId,
        kind: 'strategy-removed',
        strategyId,
        payload: { profileName: profileNameOf(store, profileId), strategyName },
      });
    return removed;
  });
}

/** A version added by id: what the service gave, stored with its entry. */
export function recordVersionImported(
  store: Store,
  profileId: string,
  version: Version,
  storeIt: () => void,
): void {
  store.activity.record((append) => {
    storeIt();
    append({
      profileId,
      kind: 'version-imported',
      strategyId: version.strategy_id,
      versionId: version.id,
      payload: {
        profileName: profileNameOf(store, profileId),
        strategyName: strategyNameOf(store, profileId, version.strategy_id),
        version: versionContent(version),
      },
    });
  });
}

/**
 * What the manager saw of a version before deleting it: its content as read from the service
 * just before the delete; or nothing, because the read failed and the manager acknowledged
 * deleting it unseen; or nothing, because the read found it gone already.
 */
export type SeenBeforeDelete =
  | { kind: 'read'; version: Version; readAt: string }
  | {
      kind: 'unread';
      error: { kind: string; message: string; status?: number; serviceMessage?: string };
      triedAt: string;
    }
  | { kind: 'gone'; readAt: string };

/**
 * A version deleted at the service (or found gone there): its content as read just before the
 * delete, or why it was not read and that the manager acknowledged that; the copy this app held
 * is kept too when nothing fresher was read, before it goes.
 */
export function recordVersionDeleted(
  store: Store,
  where: {
    profileId: string;
    strategyId: string;
    versionId: string;
    goneAlready: boolean;
    seen: SeenBeforeDelete;
  },
  remove: () => boolean,
): boolean {
  const { profileId, strategyId, versionId, goneAlready, seen } = where;
  return store.activity.record((append) => {
    const stored = store.versions.get(profileId, versionId, { orders: true, positions: true });
    const removed = remove();
    const { error } = seen.kind === 'unread' ? seen : { error: null };
    append({
      profileId,
      kind: 'version-deleted',
      strategyId,
      versionId,
      payload: {
        profileName: profileNameOf(store, profileId),
        strategyName: strategyNameOf(store, profileId, strategyId),
        goneAtServiceAlready: goneAlready,
        shownBeforeDelete:
          seen.kind === 'read' ? 'read' : seen.kind === 'unread' ? 'unread-acknowledged' : 'gone',
        readBeforeDelete:
          seen.kind === 'read' ? { ...versionContent(seen.version), readAt: seen.readAt } : null,
        readError: error && {
          kind: error.kind,
          message: error.message,
          status: error.status ?? null,
          serviceMessage: error.serviceMessage ?? null,
          triedAt: seen.kind === 'unread' ? seen.triedAt : null,
        },
        lastRead:
          seen.kind !== 'read' && stored
            ? { ...versionContent(stored), syncedAt: stored.synced_at }
            : null,
      },
    });
    return removed;
  });
}

/** Orders per status and what was filled, in exact decimals. */
export function orderTotals(orders: readonly Order[]) {
  const counts: Record<string, number> = {};
  for (const status of ORDER_STATUSES) counts[status] = 0;
  let filledValue = new Decimal(0);
  for (const o of orders) {
    counts[o.status] = (counts[o.status] ?? 0) + 1;
    if (o.filled_value !== null) filledValue = filledValue.plus(toDecimal(o.filled_value));
  }
  return { orderCounts: counts, filledValue: formatDecimal(filledValue) };
}

/**
 * A followed version reached its end: final status, order counts and filled values, linked to
 * the execution that created it (when this app sent it), and where the service's positions
 * differed from the prediction. Written once per version.
 */
export function recordVersionEnded(
  store: Store,
  ended: { profileId: string; strategyId: string; versionId: string },
): void {
  const { profileId, strategyId, versionId } = ended;
  store.activity.record((append) => {
    if (store.activity.firstOfVersion(profileId, versionId, 'version-ended')) return;
    const version = store.versions.get(profileId, versionId, { orders: true, positions: true });
    if (!version) return;
    const answered = store.activity.firstOfVersion(profileId, versionId, 'execution-answered');
    const prediction = store.predictions.forVersion(profileId, versionId);
    const differences = prediction?.differences ?? null;
    append({
      profileId,
      kind: 'version-ended',
      strategyId,
      versionId,
      refersTo: answered?.refers_to ?? null,
      payload: {
        profileName: profileNameOf(store, profileId),
        strategyName: strategyNameOf(store, profileId, strategyId),
        status: version.status,
        executedAt: version.executed_at,
        ...orderTotals(version.orders ?? []),
        orders: ordersOf(version.orders),
        positions: positionsOf(version.positions),
        prediction:
          differences === null
            ? null
            : {
                targetState: prediction!.targetState,
                matched: differences.length === 0,
                // Made on a target in doubt: differences were expected, as the confirmation said.
                uncertain:
                  prediction!.targetState !== 'known' || prediction!.prediction.some(isUncertain),
                differences: differences.map((d) => ({
                  symbol: d.symbol,
                  predicted: d.predicted,
                  service: d.service,
                  expected: d.expected ?? prediction!.targetState !== 'known',
                })),
              },
      },
    });
  });
}
