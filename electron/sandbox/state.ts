import type { Holding, Order, Version, VersionPosition } from '../../shared/domain/resources';
import { TERMINAL_VERSION_STATUSES } from '../../shared/domain/resources';
import { randomUUID } from 'node:crypto';
import { dec } from './money';

/**
 * The sandbox's data model, in memory. Field names follow the wire format so
 * serialization is a pick, not a translation.
 */
export interface VersionRec extends Omit<Version, 'orders' | 'positions'> {
  orders: Order[];
  positions: VersionPosition[];
}

export interface StrategyRec {
  id: string;
  organization: string;
  name: string;
  description: string;
  fee_percent: string;
  is_liquidate_only: boolean;
  liquidate_only_reason: string | null;
  inserted_at: string;
  updated_at: string;
  /** Uninvested cash, a decimal string in dollars. */
  cash: string;
  holdings: Holding[];
  /** In insertion order: the last one is the newest. */
  versions: VersionRec[];
}

export class SandboxState {
  readonly strategies = new Map<string, StrategyRec>();

  constructor(strategies: StrategyRec[]) {
    for (const s of strategies) this.strategies.set(s.id, s);
  }

  /** Ids arrive validated; compare case-insensitively as UUIDs are. */
  strategy(id: string): StrategyRec | undefined {
    return this.strategies.get(id.toLowerCase());
  }
}

export function findVersion(strategy: StrategyRec, id: string): VersionRec | undefined {
  const wanted = id.toLowerCase();
  return strategy.versions.find((v) => v.id === wanted);
}

export function latestVersion(strategy: StrategyRec): VersionRec | undefined {
  return strategy.versions.at(-1);
}

/** The previous target: the latest executed version, whatever its status. */
export function latestExecuted(strategy: StrategyRec): VersionRec | undefined {
  for (let i = strategy.versions.length - 1; i >= 0; i--) {
    const v = strategy.versions[i]!;
    if (v.executed_at !== null) return v;
  }
  return undefined;
}

/** The newest version not executed yet (it blocks executing a new one). */
export function latestUnexecuted(strategy: StrategyRec): VersionRec | undefined {
  for (let i = strategy.versions.length - 1; i >= 0; i--) {
    const v = strategy.versions[i]!;
    if (v.executed_at === null) return v;
  }
  return undefined;
}

/** An executed version whose rebalance is still running. */
export function runningRebalance(strategy: StrategyRec): VersionRec | undefined {
  return strategy.versions.find(
    (v) =>
      v.executed_at !== null && (v.status === null || !TERMINAL_VERSION_STATUSES.has(v.status)),
  );
}

/** Symbol -> weight of the current target; only weights above zero count as targeted. */
export function currentTarget(strategy: StrategyRec): Map<string, string> {
  const target = new Map<string, string>();
  const executed = latestExecuted(strategy);
  if (!executed) return target;
  for (const p of executed.positions) if (dec(p.weight).gt(0)) target.set(p.symbol, p.weight);
  return target;
}

export function currentCashWeight(strategy: StrategyRec): string {
  return latestExecuted(strategy)?.cash_weight ?? '100';
}

export function serializeStrategy(s: StrategyRec, withPositions: boolean) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    fee_percent: s.fee_percent,
    is_liquidate_only: s.is_liquidate_only,
    liquidate_only_reason: s.liquidate_only_reason,
    inserted_at: s.inserted_at,
    updated_at: s.updated_at,
    ...(withPositions ? { positions: s.holdings.map((h) => ({ ...h })) } : {}),
  };
}

export function serializeVersion(
  v: VersionRec,
  include: { orders: boolean; positions: boolean },
): Version {
  return {
    id: v.id,
    strategy_id: v.strategy_id,
    cash_weight: v.cash_weight,
    old_cash_weight: v.old_cash_weight,
    scheduled_for: v.scheduled_for,
    status: v.status,
    executed_at: v.executed_at,
    inserted_at: v.inserted_at,
    ...(include.orders ? { orders: v.orders.map((o) => ({ ...o })) } : {}),
    ...(include.positions ? { positions: v.positions.map((p) => ({ ...p })) } : {}),
  };
}

/** Sets the quantity held of a symbol (0 or less: no longer held), stamped `at`. */
export function setHolding(
  strategy: StrategyRec,
  symbol: string,
  quantity: string,
  at: string,
): void {
  const holding = strategy.holdings.find((h) => h.symbol === symbol);
  if (dec(quantity).lte(0)) {
    strategy.holdings = strategy.holdings.filter((h) => h !== holding);
  } else if (holding) {
    holding.quantity = quantity;
    holding.updated_at = at;
  } else {
    strategy.holdings.push({ id: randomUUID(), symbol, quantity, inserted_at: at, updated_at: at });
  }
  strategy.updated_at = at;
}
