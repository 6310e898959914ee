import { describe, expect, it } from 'vitest';
import { Decimal, DecimalSum } from '../../../shared/decimal';

const sum = (values: string[], places?: number) => {
  const s = new DecimalSum();
  for (const v of values) s.add(v);
  return s.toFixed(places);
};

describe('DecimalSum', () => {
  it('adds exactly, in the places of the finest addend', () => {
    expect(sum(['15000.00', '0.50'])).toBe('15000.50');
    expect(sum(['0.1', '0.2'])).toBe('0.3');
    expect(sum(['1', '2.000001', '3.5'])).toBe('6.500001');
    expect(sum(['123456789012345678901234.000000001', '1'])).toBe(
      '123456789012345678901235.000000001',
    );
    expect(sum(['-2.25', '1'])).toBe('-1.25');
    expect(sum(['-0.5', '0.25'])).toBe('-0.25');
    expect(sum(['-1.5', '1.5'])).toBe('0.0');
    expect(sum([])).toBe('0');
    expect(sum([], 2)).toBe('0.00');
    expect(sum(['7.1'], 3)).toBe('7.100');
  });

  it('agrees with decimal.js over many mixed values', () => {
    const values = Array.from({ length: 2000 }, (_, i) => {
      const whole = (i * 7919) % 100_000;
      const places = i % 7;
      const fraction = places
        ? '.' + String((i * 104_729) % 10 ** places).padStart(places, '0')
        : '';
      return `${i % 5 === 0 ? '-' : ''}${whole}${fraction}`;
    });
    const expected = values.reduce((acc, v) => acc.plus(v), new Decimal(0));
    expect(sum(values)).toBe(expected.toFixed(6));
  });

  it('refuses what is not a plain decimal', () => {
    const s = new DecimalSum();
    expect(() => s.add('1e3')).toThrow(/exponent/);
    expect(() => s.add('1,5')).toThrow(/comma/);
  });
});
