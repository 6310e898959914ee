import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '../../../../shared/decimal';
import { setTargetCash } from '../../../../shared/draft/cash';

const rows = (...pairs: [string, string][]) =>
  pairs.map(([symbol, weight]) => ({ symbol, weight }));
const sum = (rs: { weight: string }[]) =>
  rs.reduce((s, r) => s.plus(r.weight), new Decimal(0)).toFixed();

describe('set target cash to X %', () => {
  it('scales the other rows proportionally so cash is exactly X, locked rows untouched', () => {
    const before = rows(['AAPL', '30'], ['MSFT', '30'], ['SPY', '30']);
    const result = setTargetCash(before, '10 %', new Set([2]));
    expect(result).toEqual({
      ok: true,
      rows: rows(['AAPL', '30'], ['MSFT', '30'], ['SPY', '30']),
      cashBefore: '10',
      cashAfter: '10',
      changes: [],
    });
    const raised = setTargetCash(before, '25', new Set([2]));
    expect(raised.ok && raised.rows).toEqual(
      rows(['AAPL', '22.5'], ['MSFT', '22.5'], ['SPY', '30']),
    );
    expect(raised.ok && raised.changes).toEqual([
      { symbol: 'AAPL', from: '30', to: '22.5' },
      { symbol: 'MSFT', from: '30', to: '22.5' },
    ]);
    expect(raised.ok && raised.cashBefore).toBe('10');
  });

  it('rounds each share down to 6 places and gives the remainder to the largest row: the sum is exact', () => {
    const result = setTargetCash(rows(['A', '1'], ['B', '1'], ['C', '1'], ['D', '0']), '5');
    expect(result.ok && result.rows.map((r) => r.weight)).toEqual([
      '31.666668',
      '31.666666',
      '31.666666',
      '0',
    ]);
  });

  it('keeps the rules: at least 2 % cash, the locked rows fit, decimals only', () => {
    const base = rows(['A', '40'], ['B', '40']);
    expect(setTargetCash(base, '1')).toEqual({
      ok: false,
      error: 'Target cash must be from 2 to 100 % (the rules keep at least 2 % cash); 1 % is not.',
    });
    expect(setTargetCash(base, '70', new Set([0]))).toEqual({
      ok: false,
      error:
        'The locked rows total 40 %, so target cash can be at most 60 %; unlock some rows or choose less cash.',
    });
    expect(setTargetCash(base, 'ten')).toMatchObject({
      ok: false,
      error: /^The target cash "ten"/,
    });
    expect(setTargetCash(base, '100')).toMatchObject({
      ok: true,
      rows: rows(['A', '0'], ['B', '0']),
    });
  });

  it('for any weights and cash from 2 to 100, the new cash is exactly what was asked', () => {
    const weight = fc
      .integer({ min: 0, max: 2_000_000 })
      .map((n) => new Decimal(n).div(100_000).toFixed());
    fc.assert(
      fc.property(
        fc.array(weight, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 200, max: 10_000 }).map((n) => new Decimal(n).div(100).toFixed()),
        (weights, cash) => {
          const input = weights.map((w, i) => ({ symbol: `S${i}`, weight: w }));
          const result = setTargetCash(input, cash);
          if (!result.ok) return weights.every((w) => new Decimal(w).isZero());
          return (
            new Decimal(100).minus(sum(result.rows)).eq(cash) &&
            result.rows.every((r) => new Decimal(r.weight).gte(0))
          );
        },
      ),
    );
  });
});
