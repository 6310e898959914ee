import { randomUUID } from 'node:crypto';
import type { Order, PositionAction, VersionPosition } from '../../shared/domain/resources';
import { dateOf, nowIso } from './clock';
import { cents, D, dec, type Dec, str } from './money';
import { HALTED_SYMBOL, priceOf } from './prices';
import {
  currentCashWeight,
  currentTarget,
  setHolding,
  type StrategyRec,
  type VersionRec,
} from './state';

/**
 * The rebalance engine: turns a requested target into version positions and
 * orders, and walks an executed version through its statuses.
 */

export interface RequestedPosition {
  symbol: string;
  weight: string;
}

/** Orders worth less than this are not sent to the market. */
export const MIN_ORDER_VALUE = '1.00';

export function actionFor(oldWeight: string, weight: string): PositionAction {
  const previous = dec(oldWeight);
  const next = dec(weight);
  if (previous.eq(next)) return 'IGNORE';
  if (previous.isZero()) return 'ADD';
  if (next.isZero()) return 'REMOVE';
  return 'CHANGE';
}

/**
 * Positions of a new version against the previous target. A previous-target
 * symbol left out of the request is treated as weight 0 (REMOVE).
 */
export function planPositions(
  previous: Map<string, string>,
  requested: RequestedPosition[],
): VersionPosition[] {
  const positions: VersionPosition[] = requested.map((r) => {
    const old = previous.get(r.symbol) ?? '0';
    return {
      id: randomUUID(),
      symbol: r.symbol,
      old_weight: old,
      weight: r.weight,
      action: actionFor(old, r.weight),
    };
  });
  const sent = new Set(requested.map((r) => r.symbol));
  for (const [symbol, old] of previous) {
    if (!sent.has(symbol)) {
      positions.push({ id: randomUUID(), symbol, old_weight: old, weight: '0', action: 'REMOVE' });
    }
  }
  return positions;
}

/** cash_weight = 100 - sum(weights), exactly. */
export function cashWeightOf(positions: { weight: string }[]): string {
  const sum = positions.reduce((acc, p) => acc.plus(dec(p.weight)), new D(0));
  return str(new D(100).minus(sum));
}

/** Strategy value: holdings at current prices plus cash. */
export function strategyValue(strategy: StrategyRec): Dec {
  return strategy.holdings.reduce(
    (acc, h) => acc.plus(dec(h.quantity).times(dec(priceOf(h.symbol)))),
    dec(strategy.cash),
  );
}

/** The orders that move the holdings to the target weights; sells first. */
export function planOrders(
  strategy: StrategyRec,
  positions: VersionPosition[],
  at: string,
): Order[] {
  const value = strategyValue(strategy);
  const held = new Map(strategy.holdings.map((h) => [h.symbol, dec(h.quantity)]));
  const targets = new Map(positions.map((p) => [p.symbol, dec(p.weight)]));
  const symbols = new Set([...held.keys(), ...targets.keys()]);
  const orders: Order[] = [];
  for (const symbol of symbols) {
    const price = dec(priceOf(symbol));
    const quantityHeld = held.get(symbol) ?? new D(0);
    const weight = targets.get(symbol) ?? new D(0);
    let side: 'BUY' | 'SELL';
    let quantity: Dec;
    if (weight.isZero()) {
      // Leaving the target: sell everything, not a rounded estimate.
      if (quantityHeld.lte(0)) continue;
      side = 'SELL';
      quantity = quantityHeld;
    } else {
      const difference = value.times(weight).div(100).minus(quantityHeld.times(price));
      if (difference.isZero()) continue;
      side = difference.gt(0) ? 'BUY' : 'SELL';
      quantity = difference.abs().div(price).toDecimalPlaces(6, D.ROUND_DOWN);
      if (side === 'SELL' && quantity.gt(quantityHeld)) quantity = quantityHeld;
      if (quantity.isZero()) continue;
    }
    orders.push({
      id: randomUUID(),
      date: dateOf(at),
      side,
      symbol,
      status: 'PENDING',
      status_reason: null,
      order_quantity: str(quantity),
      order_value: cents(quantity.times(price)),
      filled_quantity: null,
      filled_value: null,
      filled_average_price: null,
      inserted_at: at,
      updated_at: at,
    });
  }
  const rank = (o: Order) => (o.side === 'SELL' ? 0 : 1);
  return orders.sort(
    (a, b) => rank(a) - rank(b) || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0),
  );
}

/** A new executed version (PENDING), appended to the strategy. */
export function createExecutedVersion(
  strategy: StrategyRec,
  requested: RequestedPosition[],
  at: string = nowIso(),
): VersionRec {
  const positions = planPositions(currentTarget(strategy), requested);
  const version: VersionRec = {
    id: randomUUID(),
    strategy_id: strategy.id,
    cash_weight: cashWeightOf(positions),
    old_cash_weight: currentCashWeight(strategy),
    scheduled_for: null,
    status: 'PENDING',
    executed_at: at,
    inserted_at: at,
    orders: planOrders(strategy, positions, at),
    positions,
  };
  strategy.versions.push(version);
  return version;
}

/** A version that is not executed (SCHEDULED when it has a time), appended to the strategy. */
export function createUnexecutedVersion(
  strategy: StrategyRec,
  requested: RequestedPosition[],
  scheduledFor: string | null,
  at: string = nowIso(),
): VersionRec {
  const positions = planPositions(currentTarget(strategy), requested);
  const version: VersionRec = {
    id: randomUUID(),
    strategy_id: strategy.id,
    cash_weight: cashWeightOf(positions),
    old_cash_weight: currentCashWeight(strategy),
    scheduled_for: scheduledFor,
    status: scheduledFor === null ? null : 'SCHEDULED',
    executed_at: null,
    inserted_at: at,
    orders: [],
    positions,
  };
  strategy.versions.push(version);
  return version;
}

/** IN_PROGRESS: orders go to the market, except the ones too small to send. */
export function sendOrders(version: VersionRec, at: string = nowIso()): void {
  const minimum = dec(MIN_ORDER_VALUE);
  for (const order of version.orders) {
    if (order.status !== 'PENDING') continue;
    if (dec(order.order_value).lt(minimum)) {
      Object.assign(order, {
        status: 'IGNORED',
        status_reason: `Order value ${order.order_value} is below the minimum of ${MIN_ORDER_VALUE}`,
        filled_quantity: '0',
        filled_value: '0',
        filled_average_price: null,
        updated_at: at,
      });
    } else {
      Object.assign(order, { status: 'SENT', updated_at: at });
    }
  }
  version.status = 'IN_PROGRESS';
}

/** The end of the rebalance: fills, holdings and cash; FAILED if any order could not fill. */
export function fillOrders(
  strategy: StrategyRec,
  version: VersionRec,
  at: string = nowIso(),
  partialFills: Readonly<Record<string, string>> = {},
): void {
  let failed = false;
  for (const order of version.orders) {
    if (order.status !== 'SENT') continue;
    const fraction = partialFills[order.symbol];
    if (fraction !== undefined) {
      // A thin market: only part fills, the rest fails; what filled is held.
      failed = true;
      const price = priceOf(order.symbol);
      const quantity = str(dec(order.order_quantity).times(dec(fraction)));
      const value = cents(dec(quantity).times(dec(price)));
      Object.assign(order, {
        status: 'FAILED',
        status_reason: `Only ${quantity} of ${order.order_quantity} ${order.symbol} could be filled`,
        filled_quantity: quantity,
        filled_value: value,
        filled_average_price: price,
        updated_at: at,
      });
      applyFill(strategy, order.side, order.symbol, quantity, value, at);
      continue;
    }
    if (order.symbol === HALTED_SYMBOL) {
      failed = true;
      Object.assign(order, {
        status: 'FAILED',
        status_reason: `Trading in ${order.symbol} is halted; the order could not be filled`,
        filled_quantity: '0',
        filled_value: '0',
        filled_average_price: null,
        updated_at: at,
      });
      continue;
    }
    const price = priceOf(order.symbol);
    const filledValue = cents(dec(order.order_quantity).times(dec(price)));
    Object.assign(order, {
      status: 'FILLED',
      filled_quantity: order.order_quantity,
      filled_value: filledValue,
      filled_average_price: price,
      updated_at: at,
    });
    applyFill(strategy, order.side, order.symbol, order.order_quantity, filledValue, at);
  }
  version.status = failed ? 'FAILED' : 'COMPLETE';
  if (failed) {
    strategy.is_liquidate_only = true;
    strategy.liquidate_only_reason = 'ORDER_FAILED';
  }
  strategy.updated_at = at;
}

function applyFill(
  strategy: StrategyRec,
  side: 'BUY' | 'SELL',
  symbol: string,
  quantity: string,
  value: string,
  at: string,
): void {
  const sign = side === 'BUY' ? 1 : -1;
  strategy.cash = str(dec(strategy.cash).minus(dec(value).times(sign)));
  const held = strategy.holdings.find((h) => h.symbol === symbol)?.quantity ?? '0';
  setHolding(strategy, symbol, str(dec(held).plus(dec(quantity).times(sign))), at);
}

/**
 * Walks executed versions through PENDING -> CREATING_ORDERS -> IN_PROGRESS ->
 * COMPLETE/FAILED, one step per `stepMs()`. Timers are tracked so close and
 * reset can cancel them all.
 */
export class Progression {
  private readonly timers = new Set<NodeJS.Timeout>();

  /** `onStep` runs after every step, so a persisted sandbox can save what changed. */
  constructor(
    private readonly stepMs: () => number,
    private readonly onStep: () => void = () => undefined,
    /** The `partial_fills` fault as it is when the orders fill. */
    private readonly partialFills: () => Readonly<Record<string, string>> = () => ({}),
  ) {}

  start(strategy: StrategyRec, version: VersionRec): void {
    this.resume(strategy, version);
  }

  /** Goes on from the version's current status (after a sandbox restart, from its saved state). */
  resume(strategy: StrategyRec, version: VersionRec): void {
    const fill = () =>
      this.after(() => fillOrders(strategy, version, nowIso(), this.partialFills()));
    const send = () =>
      this.after(() => {
        sendOrders(version);
        fill();
      });
    switch (version.status) {
      case 'PENDING':
        this.after(() => {
          version.status = 'CREATING_ORDERS';
          send();
        });
        return;
      case 'CREATING_ORDERS':
        send();
        return;
      case 'IN_PROGRESS':
        fill();
        return;
      default:
        return;
    }
  }

  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private after(step: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      step();
      this.onStep();
    }, this.stepMs());
    this.timers.add(timer);
  }
}
