import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ORDER_REPORT_COLUMNS } from '../../../../electron/core/reports';
import {
  openTemp,
  seedStrategy,
  strategyResponse,
  ts,
  versionResponse,
} from '../../../support/store-fixtures';

describe('order report rows', () => {
  let t: ReturnType<typeof openTemp>;
  beforeEach(() => {
    t = openTemp();
  });
  afterEach(() => t.close());

  function seed() {
    const { profileId, strategyId } = seedStrategy(t.store);
    const other = strategyResponse({ name: 'Dividend Growth' });
    t.store.strategies.upsert(profileId, other);
    const early = versionResponse(
      strategyId,
      { orders: 3 },
      { executed_at: ts(10), status: 'COMPLETE' },
    );
    const late = versionResponse(strategyId, { orders: 2 }, { executed_at: ts(30) });
    const elsewhere = versionResponse(other.id, { orders: 4 }, { executed_at: ts(20) });
    early.orders![1] = {
      ...early.orders![1]!,
      status: 'IGNORED',
      status_reason: 'Order under 1.00',
      filled_quantity: '0',
      filled_value: '0',
    };
    for (const v of [late, early, elsewhere]) t.store.versions.upsert(profileId, v);
    return { profileId, strategyId, other, early, late, elsewhere };
  }

  it('gives one version’s orders with the report columns, nulls kept as null', () => {
    const { profileId, strategyId, early } = seed();
    const rows = [...t.store.reports.iterateOrderReportRows({ profileId, versionId: early.id })];
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0]!)).toEqual([...ORDER_REPORT_COLUMNS]);
    const o = early.orders![1]!;
    expect(rows[1]).toEqual({
      strategy_id: strategyId,
      strategy_name: 'Core Equity',
      version_id: early.id,
      version_status: 'COMPLETE',
      executed_at: ts(10),
      order_id: o.id,
      date: o.date,
      side: o.side,
      symbol: o.symbol,
      status: 'IGNORED',
      status_reason: 'Order under 1.00',
      order_quantity: o.order_quantity,
      order_value: o.order_value,
      filled_quantity: '0',
      filled_value: '0',
      filled_average_price: null,
      inserted_at: o.inserted_at,
      updated_at: o.updated_at,
    });
  });

  it('gives a strategy’s versions oldest first, and a date range across strategies', () => {
    const { profileId, strategyId, early, late, elsewhere } = seed();
    const byStrategy = [...t.store.reports.iterateOrderReportRows({ profileId, strategyId })];
    expect(byStrategy.map((r) => r.order_id)).toEqual(
      [...early.orders!, ...late.orders!].map((o) => o.id),
    );

    const range = [
      ...t.store.reports.iterateOrderReportRows(
        { profileId, from: ts(15), to: ts(31) },
        { raw: true },
      ),
    ];
    expect(range.map((r) => r[5])).toEqual(
      [...elsewhere.orders!, ...late.orders!].map((o) => o.id),
    );
    expect(range[0]![1]).toBe('Dividend Growth');
    expect(range[0]).toHaveLength(ORDER_REPORT_COLUMNS.length);
  });

  it('streams without blocking writes on the store, and releases its connection on break', () => {
    const { profileId, strategyId, late } = seed();
    const seen: string[] = [];
    for (const row of t.store.reports.iterateOrderReportRows({ profileId, strategyId })) {
      seen.push(row.order_id!);
      // The tracker keeps writing while an export is being read.
      t.store.versions.upsert(profileId, { ...late, status: 'COMPLETE' });
      t.store.settings.set('last', row.order_id!);
      if (seen.length === 2) break;
    }
    expect(seen).toHaveLength(2);
    expect(t.store.versions.get(profileId, late.id)!.status).toBe('COMPLETE');
  });
});
