import { describe, expect, it } from 'vitest';
import { rescaleToTotal, setToZero } from '../../../shared/draft/edit';
import type { DraftRowInput } from '../../../shared/draft/types';

const rows = (...weights: string[]): DraftRowInput[] =>
  weights.map((weight, i) => ({ symbol: `S${i}`, weight }));
const weightsOf = (result: ReturnType<typeof rescaleToTotal>) =>
  result.ok ? result.rows.map((r) => r.weight) : result.error;

describe('rescaleToTotal', () => {
  it('scales proportionally', () => {
    expect(weightsOf(rescaleToTotal(rows('10', '20', '30'), '90'))).toEqual(['15', '30', '45']);
  });

  it('rounds down to 6 places and puts the remainder on the largest row', () => {
    expect(weightsOf(rescaleToTotal(rows('1', '2', '1'), '98'))).toEqual(['24.5', '49', '24.5']);
    expect(weightsOf(rescaleToTotal(rows('1', '1', '1'), '98'))).toEqual([
      '32.666668',
      '32.666666',
      '32.666666',
    ]);
  });

  it('leaves locked rows and rows at 0 as typed', () => {
    const result = rescaleToTotal(rows('10.50', '0', '20', '30'), '50.5', new Set([0]));
    expect(weightsOf(result)).toEqual(['10.50', '0', '16', '24']);
  });

  it('"Rescale so the draft totals 90 %": the whole draft totals 90, locked rows included', () => {
    const result = rescaleToTotal(rows('6.75', '45', '30'), '90', new Set([0]));
    expect(weightsOf(result)).toEqual(['6.75', '49.95', '33.3']);
    expect(result).toMatchObject({ ok: true, lockedTotal: '6.75' });
  });

  it('rescales to 0: every unlocked row with a weight becomes 0', () => {
    const result = rescaleToTotal(rows('0.7', '3', '0'), '0', new Set([2]));
    expect(weightsOf(result)).toEqual(['0', '0', '0']);
  });

  it('accepts a total with % and spaces', () => {
    expect(weightsOf(rescaleToTotal(rows('1', '1'), ' 50 % '))).toEqual(['25', '25']);
  });

  it('returns the same weights when they already sum to the total', () => {
    expect(weightsOf(rescaleToTotal(rows('1.1234567', '2'), '3.1234567'))).toEqual([
      '1.1234567',
      '2',
    ]);
  });

  it.each([
    [rows('10'), '99', /from 0 to 98/],
    [rows('10'), '-1', /from 0 to 98/],
    [rows('10'), '1e2', /exponent/],
    [[], '50', /no rows/],
    [rows('10', 'abc'), '50', /^Row 2 \(S1\): weight "abc" is not a decimal number/],
    [rows('10', '-1'), '50', /^Row 2 \(S1\): weight -1 is below 0/],
    [rows('0', '0'), '50', /Every unlocked row is at 0/],
  ])('refuses impossible cases clearly (%#)', (input, total, error) => {
    const result = rescaleToTotal(input, total);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(error);
  });

  it('refuses when locked rows exceed the total or everything is locked', () => {
    const locked = rescaleToTotal(rows('60', '10'), '50', new Set([0]));
    expect(locked).toEqual({
      ok: false,
      error:
        'The locked rows already total 60, more than 50; unlock some rows or choose a larger total.',
    });
    const all = rescaleToTotal(rows('10', '10'), '50', new Set([0, 1]));
    expect(all.ok === false && all.error).toMatch(/^Every row is locked/);
  });

  it('does not touch its input', () => {
    const input = rows('1', '3');
    rescaleToTotal(input, '8');
    expect(input.map((r) => r.weight)).toEqual(['1', '3']);
  });
});

describe('setToZero', () => {
  it('sets the chosen rows to 0 and keeps the others (same objects)', () => {
    const input = rows('1', '2', '3');
    const result = setToZero(input, [0, 2, 9]);
    expect(result.map((r) => r.weight)).toEqual(['0', '2', '0']);
    expect(result[1]).toBe(input[1]);
    expect(input[0]!.weight).toBe('1');
  });
});
