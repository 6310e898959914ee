import { toDecimal } from './decimal';
import type { Order, Version, VersionPosition } from './domain/resources';
import { TERMINAL_VERSION_STATUSES } from './domain/constants';
import { checkTarget, hasEndWitness } from './draft/target-check';
import type { HeldPosition } from './draft/types';
import type { CurrentTarget, TargetCheckView } from './views';

/**
 * The known target and the holdings against it, as plain functions of what the store holds: the
 * strategy's page, its confirmation and the announcement of a rebalance's end all compute them
 * from the same rows (the latest executed version, read with its positions and orders).
 */

/** The latest executed version as the store gives it (its positions and orders read with it). */
export type KnownVersionRow = Omit<Version, 'orders' | 'positions'> & {
  origin: 'created' | 'imported';
  positions?: readonly VersionPosition[];
  orders?: readonly Order[];
};

/** The current target: the version's positions above 0. */
export function knownTargetOf(version: KnownVersionRow): CurrentTarget {
  return {
    versionId: version.id,
    executedAt: version.executed_at,
    status: version.status,
    cashWeight: version.cash_weight,
    positions: (version.positions ?? [])
      .filter((p) => !toDecimal(p.weight).isZero())
      .map((p) => ({ symbol: p.symbol, weight: p.weight })),
    origin: version.origin,
  };
}

/**
 * The holdings against the known target. For a version that ended with no order carrying an end
 * time (all IGNORED, or none), the strategy's update time read as the app saw that version end
 * (`settledAt`, asked for only then) stands for it (settling the target: tracking/tracking.ts).
 */
export function targetCheckFrom(
  version: KnownVersionRow,
  target: CurrentTarget,
  holdings: readonly HeldPosition[],
  strategyUpdatedAt: string,
  settledAt: () => string | null,
): TargetCheckView {
  const facts = {
    positions: target.positions,
    orders: version.orders ?? [],
    status: version.status,
    executedAt: version.executed_at,
    insertedAt: version.inserted_at,
  };
  const ended = version.status !== null && TERMINAL_VERSION_STATUSES.has(version.status);
  if (!ended || hasEndWitness(facts.orders)) return checkTarget(facts, holdings, strategyUpdatedAt);
  return checkTarget({ ...facts, settledAt: settledAt() }, holdings, strategyUpdatedAt);
}
