import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NumberColumn,
  TextColumn,
  alignmentPad,
  formatCount,
  fractionPlaces,
  groupDigits,
} from '../../../shared/figures';
import { count } from '../../../shared/draft/exact';

const decimalString = fc
  .tuple(
    fc.constantFrom('', '-', '+'),
    fc.stringMatching(/^[0-9]{1,40}$/),
    fc.option(fc.stringMatching(/^[0-9]{1,30}$/), { nil: undefined }),
  )
  .map(
    ([sign, whole, fraction]) => `${sign}${whole}${fraction === undefined ? '' : `.${fraction}`}`,
  );

describe('groupDigits', () => {
  it('groups the integer part by thousands and leaves the fraction alone', () => {
    expect(groupDigits('150000.00')).toBe('150,000.00');
    expect(groupDigits('659.398123')).toBe('659.398123');
    expect(groupDigits('1000')).toBe('1,000');
    expect(groupDigits('999')).toBe('999');
    expect(groupDigits('0.000001')).toBe('0.000001');
    expect(groupDigits('-1234567.8912345')).toBe('-1,234,567.8912345');
    expect(groupDigits('+1000.5')).toBe('+1,000.5');
    expect(groupDigits('0')).toBe('0');
  });

  it('keeps every digit of numbers no float can hold', () => {
    expect(groupDigits('123456789012345678901234.000000000000000001')).toBe(
      '123,456,789,012,345,678,901,234.000000000000000001',
    );
    expect(groupDigits('9007199254740993')).toBe('9,007,199,254,740,993');
  });

  it('returns anything that is not a decimal string unchanged', () => {
    for (const text of ['', '—', 'abc', '1,000', '1e5', '.5', '5.', ' 12', 'NaN'])
      expect(groupDigits(text)).toBe(text);
  });

  it('only inserts commas, three digits apart, counted from the point', () => {
    fc.assert(
      fc.property(decimalString, (value) => {
        const grouped = groupDigits(value);
        expect(grouped.replaceAll(',', '')).toBe(value);
        const whole = grouped.replace(/^[+-]/, '').split('.')[0]!;
        const groups = whole.split(',');
        expect(groups[0]!.length).toBeGreaterThanOrEqual(1);
        expect(groups[0]!.length).toBeLessThanOrEqual(3);
        for (const g of groups.slice(1)) expect(g).toMatch(/^\d{3}$/);
      }),
    );
  });
});

describe('formatCount', () => {
  it('groups counts the way amounts are grouped, in messages as in tables', () => {
    expect(formatCount(1001)).toBe('1,001');
    expect(formatCount(10_000)).toBe('10,000');
    expect(formatCount(7)).toBe('7');
    expect(formatCount(0)).toBe('0');
    expect(count(1001)).toBe(formatCount(1001));
  });
});

describe('alignment', () => {
  it('counts the digits after the point', () => {
    expect(fractionPlaces('12')).toBe(0);
    expect(fractionPlaces('12.5')).toBe(1);
    expect(fractionPlaces('-0.125')).toBe(3);
  });

  it('pads each number to the places of its column, with the point when it has none', () => {
    expect(alignmentPad('12.5', 3)).toBe('00');
    expect(alignmentPad('12.125', 3)).toBe('');
    expect(alignmentPad('12', 2)).toBe('.00');
    expect(alignmentPad(null, 2)).toBe('.00');
    expect(alignmentPad('12', 0)).toBe('');
    expect(alignmentPad(null, 0)).toBe('');
  });

  it('makes every number of a column as long after its point as the longest', () => {
    fc.assert(
      fc.property(fc.array(decimalString, { minLength: 1, maxLength: 30 }), (values) => {
        const column = new NumberColumn();
        for (const v of values) column.add(v);
        const tails = values.map((v) => {
          const shown = v + alignmentPad(v, column.places);
          return shown.length - shown.indexOf('.');
        });
        if (column.places === 0) expect(values.every((v) => !v.includes('.'))).toBe(true);
        else for (const tail of tails) expect(tail).toBe(column.places + 1);
      }),
    );
  });
});

describe('column shapes', () => {
  it('finds a number as wide as the widest one shown, grouped and aligned', () => {
    const column = new NumberColumn();
    for (const v of ['659.398', '150000.00', null, '7', '-12.5']) column.add(v);
    expect(column.places).toBe(3);
    expect(column.widest()).toBe('-888,888.888');
    expect(column.widest(false)).toBe('-888888.888');
  });

  it('keeps room for a plus sign, wider than a minus', () => {
    const column = new NumberColumn();
    for (const v of ['-1', '+2', '-3']) column.add(v);
    expect(column.widest()).toBe('+8');
  });

  it('is one digit wide with nothing in it', () => {
    expect(new NumberColumn().widest()).toBe('8');
  });

  it('every shown number is at most as long as the widest', () => {
    fc.assert(
      fc.property(fc.array(decimalString, { minLength: 1, maxLength: 30 }), (values) => {
        const column = new NumberColumn();
        for (const v of values) column.add(v);
        const widest = column.widest().length;
        for (const v of values)
          expect(groupDigits(v).length + alignmentPad(v, column.places).length).toBeLessThanOrEqual(
            widest,
          );
      }),
    );
  });

  it('finds the longest text', () => {
    const column = new TextColumn();
    for (const v of ['KO', 'HALTED', null, 'AAPL']) column.add(v);
    expect(column.longest).toBe('HALTED');
  });
});
