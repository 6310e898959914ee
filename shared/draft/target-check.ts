import { TERMINAL_VERSION_STATUSES, type VersionStatus } from '../domain/constants';
import { isZeroString } from './exact';
import type { HeldPosition, TargetPosition } from './types';

/**
 * Does what the strategy holds now fit the version the app takes as its current target? The
 * interface lists no versions, so a version executed elsewhere is only visible through its
 * effects: holdings the target does not explain, or the strategy changed after the version's
 * last activity.
 */

export interface KnownVersionFacts {
  /** Its positions (weight 0 ones are not targeted). */
  positions: readonly TargetPosition[];
  orders: readonly { symbol: string; status: string; updated_at: string }[];
  status: VersionStatus | null;
  executedAt: string | null;
  insertedAt: string;
  /**
   * The strategy's update time the app first saw once this version had ended, when none of its
   * orders carries a fill time (all IGNORED, or none): the version's last known activity.
   */
  settledAt?: string | null;
}

export interface TargetCheck {
  /** Held symbols the known target does not contain (beyond its IGNORED or FAILED orders). */
  heldNotInTarget: string[];
  /** Symbols the known target holds above 0 that are not held (beyond IGNORED or FAILED orders). */
  targetNotHeld: string[];
  /** The strategy was updated after the known version's last recorded activity. */
  updatedAfter: boolean;
  /** Nothing above: the holdings fit the known target. */
  fits: boolean;
}

const UNFILLED = new Set(['IGNORED', 'FAILED']);

export function checkTarget(
  version: KnownVersionFacts,
  holdings: readonly HeldPosition[],
  strategyUpdatedAt: string,
): TargetCheck {
  const targeted = new Set(
    version.positions.filter((p) => !isZeroString(p.weight)).map((p) => p.symbol),
  );
  const held = new Set(holdings.filter((h) => !isZeroString(h.quantity)).map((h) => h.symbol));
  // An order that ended without a fill leaves its symbol as it was: held, or not bought.
  const unfilled = new Set(
    version.orders.filter((o) => UNFILLED.has(o.status)).map((o) => o.symbol),
  );
  const ended = version.status !== null && TERMINAL_VERSION_STATUSES.has(version.status);
  const heldNotInTarget: string[] = [];
  const targetNotHeld: string[] = [];
  // While the known version still rebalances, holdings are on their way: nothing to compare.
  if (ended) {
    for (const symbol of held)
      if (!targeted.has(symbol) && !unfilled.has(symbol)) heldNotInTarget.push(symbol);
    for (const symbol of targeted)
      if (!held.has(symbol) && !unfilled.has(symbol)) targetNotHeld.push(symbol);
  }
  let last = version.executedAt ?? version.insertedAt;
  if (version.settledAt && compareInstants(version.settledAt, last) > 0) last = version.settledAt;
  for (const order of version.orders)
    if (compareInstants(order.updated_at, last) > 0) last = order.updated_at;
  const updatedAfter = compareInstants(strategyUpdatedAt, last) > 0;
  heldNotInTarget.sort();
  targetNotHeld.sort();
  return {
    heldNotInTarget,
    targetNotHeld,
    updatedAfter,
    fits: heldNotInTarget.length === 0 && targetNotHeld.length === 0 && !updatedAfter,
  };
}

const INSTANT = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)$/;

/**
 * Orders two ISO 8601 timestamps to the nanosecond (the service writes microseconds, which
 * Date drops). A timestamp that cannot be read sorts as later: it is never taken as proof that
 * nothing changed.
 */
export function compareInstants(a: string, b: string): number {
  const x = instantKey(a);
  const y = instantKey(b);
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function instantKey(value: string): bigint | null {
  const match = INSTANT.exec(value);
  if (!match) return null;
  const seconds = Date.parse(`${match[1]}${match[3] === 'Z' ? 'Z' : match[3]}`);
  if (Number.isNaN(seconds)) return null;
  const fraction = (match[2] ?? '').padEnd(9, '0').slice(0, 9);
  return BigInt(seconds) * 1_000_000n + BigInt(fraction);
}

/** A fill or a failure at the end of the rebalance stamps its order with the end's time. */
export function hasEndWitness(orders: KnownVersionFacts['orders']): boolean {
  return orders.some((o) => o.status === 'FILLED' || o.status === 'FAILED');
}
