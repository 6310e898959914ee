import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store, type StoreOptions } from '../../electron/core/store';
import type { Order, Strategy, Version } from '../../shared/domain/resources';

/** A temp folder for a test's SQLite files; `cleanup` removes it. */
export function tempFolder(): {
  dir: string;
  file: (name?: string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'strategy-desk-store-'));
  return {
    dir,
    file: (name = 'desk.sqlite') => join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function openTemp(options: StoreOptions = {}) {
  const folder = tempFolder();
  const store = openStore(folder.file(), options);
  return {
    store,
    folder,
    close: () => {
      store.close();
      folder.cleanup();
    },
  };
}

export const ts = (second: number) =>
  new Date(Date.UTC(2025, 0, 2, 9, 0, second)).toISOString().replace('Z', '000Z');

export function strategyResponse(overrides: Partial<Strategy> = {}): Strategy {
  return {
    id: randomUUID(),
    name: 'Core Equity',
    description: 'US large caps',
    fee_percent: '0.250000',
    is_liquidate_only: false,
    liquidate_only_reason: null,
    inserted_at: ts(0),
    updated_at: ts(1),
    positions: [
      {
        id: randomUUID(),
        symbol: 'AAPL',
        quantity: '12.500000',
        inserted_at: ts(2),
        updated_at: ts(3),
      },
      {
        id: randomUUID(),
        symbol: 'BRK.B',
        quantity: '0.000001',
        inserted_at: ts(2),
        updated_at: ts(3),
      },
    ],
    ...overrides,
  };
}

export function orderResponse(i: number, overrides: Partial<Order> = {}): Order {
  return {
    id: randomUUID(),
    date: '2025-01-02',
    side: i % 3 === 0 ? 'SELL' : 'BUY',
    symbol: `SYM${i}`,
    status: 'PENDING',
    status_reason: null,
    order_quantity: `${i}.000001`,
    order_value: `${1000 + i}.50`,
    filled_quantity: null,
    filled_value: null,
    filled_average_price: null,
    inserted_at: ts(4),
    updated_at: ts(4),
    ...overrides,
  };
}

/** An execute response: a PENDING version with `orders` orders and `positions` positions. */
export function versionResponse(
  strategyId: string,
  { orders = 3, positions = 3 }: { orders?: number; positions?: number } = {},
  overrides: Partial<Version> = {},
): Version {
  return {
    id: randomUUID(),
    strategy_id: strategyId,
    cash_weight: '12.500000',
    old_cash_weight: '100',
    scheduled_for: null,
    status: 'PENDING',
    executed_at: ts(5),
    inserted_at: ts(5),
    orders: Array.from({ length: orders }, (_, i) => orderResponse(i)),
    positions: Array.from({ length: positions }, (_, i) => ({
      id: randomUUID(),
      symbol: `SYM${i}`,
      old_weight: '0',
      weight: i === 0 ? '0.000001' : '98',
      action: 'ADD' as const,
    })),
    ...overrides,
  };
}

/** A profile and a strategy to hang versions and drafts off. */
export function seedStrategy(store: Store, strategy = strategyResponse()) {
  const profile = store.profiles.create({
    name: 'Demo',
    baseUrl: 'http://127.0.0.1:1',
    clientId: 'demo-manager',
    environment: 'sandbox',
  });
  store.strategies.upsert(profile.id, strategy);
  return { profileId: profile.id, strategyId: strategy.id, strategy };
}
