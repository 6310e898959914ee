import { randomUUID } from 'node:crypto';
import { isoDaysFromNow } from './clock';
import {
  createExecutedVersion,
  createUnexecutedVersion,
  fillOrders,
  type RequestedPosition,
  sendOrders,
} from './engine';
import { cents, dec, str } from './money';
import { HALTED_SYMBOL, priceOf } from './prices';
import type { StrategyRec } from './state';

/** How the demo strategies are made: funded with cash 180 days ago, then given their history. */

export function newStrategy(
  fields: Pick<
    StrategyRec,
    'id' | 'organization' | 'name' | 'description' | 'fee_percent' | 'cash'
  >,
): StrategyRec {
  const inserted = isoDaysFromNow(-180);
  return {
    ...fields,
    is_liquidate_only: false,
    liquidate_only_reason: null,
    inserted_at: inserted,
    updated_at: inserted,
    holdings: [],
    versions: [],
  };
}

/**
 * Executes a target from the strategy's cash in the past and completes it at once; the symbols
 * of `partialFills` fill only that fraction (the sandbox's `partial_fills` fault).
 */
export function executeInThePast(
  strategy: StrategyRec,
  versionId: string,
  target: RequestedPosition[],
  daysAgo: number,
  partialFills: Readonly<Record<string, string>> = {},
): void {
  const executedAt = isoDaysFromNow(-daysAgo);
  const version = createExecutedVersion(strategy, target, executedAt);
  version.id = versionId;
  sendOrders(version, isoDaysFromNow(-daysAgo, 1_000_000));
  fillOrders(strategy, version, isoDaysFromNow(-daysAgo, 2_000_000), partialFills);
}

/** A version written but not executed, scheduled `daysAhead` from now, written `daysAgo`. */
export function scheduleVersion(
  strategy: StrategyRec,
  versionId: string,
  target: RequestedPosition[],
  daysAhead: number,
  daysAgo: number,
): void {
  const version = createUnexecutedVersion(
    strategy,
    target,
    isoDaysFromNow(daysAhead),
    isoDaysFromNow(-daysAgo),
  );
  version.id = versionId;
}

/**
 * Like `executeInThePast`, but every order fills, `HALTED` too: the strategy bought it before its
 * trading was halted, so it holds it now (and any order for it from now on fails).
 */
export function executeBeforeHalt(
  strategy: StrategyRec,
  versionId: string,
  target: RequestedPosition[],
  daysAgo: number,
): void {
  executeInThePast(strategy, versionId, target, daysAgo);
  const version = strategy.versions.find((v) => v.id === versionId)!;
  const at = isoDaysFromNow(-daysAgo, 2_000_000);
  for (const order of version.orders) {
    if (order.symbol !== HALTED_SYMBOL || order.status !== 'FAILED') continue;
    const value = cents(dec(order.order_quantity).times(dec(priceOf(order.symbol))));
    Object.assign(order, {
      status: 'FILLED',
      status_reason: null,
      filled_quantity: order.order_quantity,
      filled_value: value,
      filled_average_price: priceOf(order.symbol),
    });
    strategy.cash = str(dec(strategy.cash).minus(dec(value)));
    strategy.holdings.push({
      id: randomUUID(),
      symbol: order.symbol,
      quantity: order.order_quantity,
      inserted_at: at,
      updated_at: at,
    });
  }
  version.status = 'COMPLETE';
  strategy.is_liquidate_only = false;
  strategy.liquidate_only_reason = null;
}
