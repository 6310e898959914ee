import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../../shared/decimal';
import type { Order } from '../../../../shared/domain/resources';
import {
  TotalsAccumulator,
  compareVersions,
  deleteBlockedReason,
  filterOrders,
  orderTotals,
  parseVersionId,
  seenTimes,
  stepLine,
  versionStatusLabel,
} from '../../../../renderer/src/versions/model';

const order = (over: Partial<Order>): Order => ({
  id: '00000000-0000-4000-8000-000000000001',
  date: '2025-03-03',
  side: 'BUY',
  symbol: 'AAPL',
  status: 'FILLED',
  status_reason: null,
  order_quantity: '1',
  order_value: '10.00',
  filled_quantity: '1',
  filled_value: '10.00',
  filled_average_price: '10.00',
  inserted_at: '2025-03-03T10:00:00Z',
  updated_at: '2025-03-03T10:00:00Z',
  ...over,
});

describe('parseVersionId', () => {
  it('accepts an id with spaces, braces or capitals, and refuses anything else in words', () => {
    expect(parseVersionId(' {A1C3E5F7-9B2D-4F6A-8C0E-3D5B7F9A1C03} ')).toEqual({
      ok: true,
      id: 'a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03',
    });
    expect(parseVersionId('')).toMatchObject({ ok: false, error: 'Enter the id of the version.' });
    expect(parseVersionId('a1c3e5f7-9b2d-4f6a-8c0e')).toMatchObject({ ok: false });
  });
});

describe('deleteBlockedReason', () => {
  const base = {
    id: 'a1c3e5f7-9b2d-4f6a-8c0e-3d5b7f9a1c03',
    strategyId: 'fcf7399e-c3c7-42b0-88af-f28bbb709316',
    status: 'SCHEDULED' as const,
    cashWeight: '5',
    oldCashWeight: '5',
    scheduledFor: null,
    executedAt: null,
    insertedAt: '2025-03-03T10:00:00Z',
    origin: 'imported' as const,
    syncedAt: '2025-03-03T10:00:00Z',
  };
  it('refuses an executed version, offline, or without the scope; allows the rest', () => {
    const ok = { online: true, missingScope: false };
    expect(deleteBlockedReason(base, ok)).toBeNull();
    expect(deleteBlockedReason({ ...base, executedAt: '2025-03-03T10:00:00Z' }, ok)).toMatch(
      /executed version cannot be deleted/,
    );
    expect(deleteBlockedReason(base, { ...ok, online: false })).toMatch(/Offline/);
    expect(deleteBlockedReason(base, { ...ok, missingScope: true })).toMatch(
      /strategy_versions:delete/,
    );
  });
});

describe('versionStatusLabel', () => {
  it('reads a version the service sent no status for as not executed, never unknown', () => {
    expect(versionStatusLabel({ status: null, executedAt: null })).toBe('NOT EXECUTED');
    expect(versionStatusLabel({ status: 'SCHEDULED', executedAt: null })).toBe('SCHEDULED');
    expect(versionStatusLabel({ status: 'COMPLETE', executedAt: '2025-03-03T10:00:00Z' })).toBe(
      'COMPLETE',
    );
    expect(versionStatusLabel({ status: null, executedAt: '2025-03-03T10:00:00Z' })).toBe(
      'NOT STARTED',
    );
  });
});

describe('stepLine', () => {
  const v = { executedAt: '2025-03-03T10:00:00Z', syncedAt: '2025-03-03T10:05:00Z' };
  it('marks passed steps, the present one with its time, and the outcome', () => {
    const steps = stepLine({ ...v, status: 'IN_PROGRESS' }, { IN_PROGRESS: '2025-03-03T10:01Z' })!;
    expect(steps.map((s) => [s.label, s.state, s.timeSource])).toEqual([
      ['PENDING', 'done', 'executed'],
      ['CREATING_ORDERS', 'done', null],
      ['IN_PROGRESS', 'current', 'seen'],
      ['COMPLETE, FAILED or CANCELLED', 'todo', null],
    ]);
    const failed = stepLine({ ...v, status: 'FAILED' }, {})!;
    expect(failed.at(-1)).toMatchObject({ label: 'FAILED', state: 'failed', time: v.syncedAt });
    expect(stepLine({ ...v, status: 'SCHEDULED', executedAt: null }, {})).toBeNull();
  });

  it('shows only the steps seen for a version cancelled straight from PENDING', () => {
    const steps = stepLine(
      { ...v, status: 'CANCELLED' },
      seenTimes(
        [
          { status: 'PENDING', firstSeenAt: '2025-03-03T10:00:01Z' },
          { status: 'CANCELLED', firstSeenAt: '2025-03-03T10:00:09Z' },
        ],
        {},
      ),
    )!;
    expect(steps.map((s) => [s.label, s.state, s.time])).toEqual([
      ['PENDING', 'done', '2025-03-03T10:00:01Z'],
      ['CANCELLED', 'cancelled', '2025-03-03T10:00:09Z'],
    ]);
  });

  it('keeps the stored first sighting over a later live one, and the live one when none is stored', () => {
    expect(
      seenTimes([{ status: 'IN_PROGRESS', firstSeenAt: '2025-03-03T10:01:00Z' }], {
        IN_PROGRESS: '2025-03-03T10:02:00Z',
        COMPLETE: '2025-03-03T10:03:00Z',
      }),
    ).toEqual({ IN_PROGRESS: '2025-03-03T10:01:00Z', COMPLETE: '2025-03-03T10:03:00Z' });
  });
});

describe('order totals', () => {
  it('sums per side exactly, keeping the places the service writes', () => {
    const totals = orderTotals([
      order({ order_value: '0.10', filled_value: '0.10' }),
      order({ order_value: '0.20', filled_value: null, status: 'FAILED' }),
      order({ side: 'SELL', order_value: '15000.00', filled_value: '14999.995' }),
    ]);
    expect(totals.BUY).toEqual({ count: 2, orderValue: '0.30', filledValue: '0.10' });
    expect(totals.SELL).toEqual({ count: 1, orderValue: '15000.00', filledValue: '14999.995' });
  });

  it('gives the same sums fed in slices as at once, equal to decimal.js over the strings', () => {
    const value = fc
      .tuple(fc.integer({ min: 0, max: 10 ** 9 }), fc.integer({ min: 0, max: 99 }))
      .map(([i, c]) => `${i}.${String(c).padStart(2, '0')}`);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.boolean(), value), { maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (entries, slice) => {
          const orders = entries.map(([sell, v]) =>
            order({ side: sell ? 'SELL' : 'BUY', order_value: v, filled_value: v }),
          );
          const acc = new TotalsAccumulator();
          while (acc.done < orders.length) acc.add(orders, acc.done, acc.done + slice);
          const sliced = acc.result();
          expect(sliced).toEqual(orderTotals(orders));
          const buys = entries.filter(([s]) => !s).map(([, v]) => v);
          const expected = buys.reduce((a, v) => a.plus(v), new Decimal(0));
          expect(new Decimal(sliced.BUY.orderValue).eq(expected)).toBe(true);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('filters by side and status', () => {
    const list = [order({ side: 'SELL' }), order({ status: 'FAILED' }), order({})];
    expect(filterOrders(list, 'ALL', 'ALL')).toBe(list);
    expect(filterOrders(list, 'BUY', 'FAILED')).toEqual([list[1]]);
    expect(filterOrders(list, 'SELL', 'ALL')).toEqual([list[0]]);
  });
});

describe('compareVersions', () => {
  it('puts weights side by side with signed exact changes, absent symbols as null', () => {
    const p = (symbol: string, weight: string) => ({
      id: '00000000-0000-4000-8000-000000000002',
      symbol,
      old_weight: '0',
      weight,
      action: 'ADD' as const,
    });
    const result = compareVersions(
      { positions: [p('AAPL', '15'), p('JPM', '8')], cashWeight: '12' },
      { positions: [p('AAPL', '13.25'), p('KO', '0.1')], cashWeight: '19.65' },
    );
    expect(result.rows).toEqual([
      { symbol: 'AAPL', before: '15', after: '13.25', change: '-1.75' },
      { symbol: 'JPM', before: '8', after: null, change: '-8' },
      { symbol: 'KO', before: null, after: '0.1', change: '+0.1' },
    ]);
    expect(result.cash.change).toBe('+7.65');
  });
});
