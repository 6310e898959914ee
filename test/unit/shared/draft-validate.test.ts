import { describe, expect, it } from 'vitest';
import { parseImportedWeight, validateDraft } from '../../../shared/draft/validate';
import type { DraftRowInput } from '../../../shared/draft/types';

const row = (symbol: string, weight: string): DraftRowInput => ({ symbol, weight });
const codes = (rows: DraftRowInput[], index: number) =>
  validateDraft(rows).rows[index]!.errors.map((e) => e.code);

describe('validateDraft: rows', () => {
  it('accepts a clean draft and reports total and cash exactly', () => {
    const v = validateDraft([row('AAPL', '10.5'), row('MSFT', '20.25')]);
    expect(v.valid).toBe(true);
    expect(v.errors).toEqual([]);
    expect(v.rows.every((r) => r.errors.length === 0)).toBe(true);
    expect(v.total).toBe('30.75');
    expect(v.cash).toBe('69.25');
  });

  it('trims and upper-cases symbols and trims weights, keeping their digits', () => {
    const v = validateDraft([row('  brk.b ', ' 5.500 ')]);
    expect(v.rows[0]).toMatchObject({ index: 0, symbol: 'BRK.B', weight: '5.500' });
    expect(v.valid).toBe(true);
  });

  it('symbol-empty names the row', () => {
    const [error] = validateDraft([row('AAPL', '1'), row('   ', '1')]).rows[1]!.errors;
    expect(error).toEqual({
      code: 'symbol-empty',
      field: 'symbol',
      message: 'Row 2: the symbol is empty',
    });
  });

  it.each(['AA PL', 'ÄPFEL', 'A'.repeat(21), 'AAPL$', 'A_B'])('symbol-invalid for %j', (symbol) => {
    const v = validateDraft([row(symbol, '1')]);
    const error = v.rows[0]!.errors[0]!;
    expect(error.code).toBe('symbol-invalid');
    expect(error.field).toBe('symbol');
    expect(error.message).toMatch(
      /^Row 1 \(.+\): ".+" (is not a valid symbol; use|has a space: a symbol is) 1 to 20 letters/,
    );
  });

  it.each(['BRK.B', 'BF-B', 'A/B', 'X', 'A'.repeat(20), '123'])('accepts symbol %j', (symbol) => {
    expect(validateDraft([row(symbol, '1')]).valid).toBe(true);
  });

  it('symbol-duplicate marks every duplicate row, after normalization, and names the others', () => {
    const v = validateDraft([
      row('aapl', '1'),
      row('MSFT', '1'),
      row(' AAPL', '2'),
      row('AAPL ', '3'),
    ]);
    expect(v.rows.map((r) => r.errors.map((e) => e.code))).toEqual([
      ['symbol-duplicate'],
      [],
      ['symbol-duplicate'],
      ['symbol-duplicate'],
    ]);
    expect(v.rows[0]!.errors[0]!.message).toBe(
      'Row 1 (AAPL): AAPL is also on rows 3 and 4; keep one row per symbol',
    );
    expect(v.rows[2]!.errors[0]!.message).toBe(
      'Row 3 (AAPL): AAPL is also on rows 1 and 4; keep one row per symbol',
    );
    expect(v.valid).toBe(false);
  });

  it('lists at most three other duplicate rows', () => {
    const rows = Array.from({ length: 6 }, () => row('SPY', '1'));
    expect(validateDraft(rows).rows[5]!.errors[0]!.message).toBe(
      'Row 6 (SPY): SPY is also on rows 1, 2, 3 and 2 more; keep one row per symbol',
    );
  });

  it('weight-empty', () => {
    expect(validateDraft([row('AAPL', ' ')]).rows[0]!.errors).toEqual([
      {
        code: 'weight-empty',
        field: 'weight',
        message:
          'Row 1 (AAPL): the weight is empty; enter a percentage from 0 to 98 (0 removes the position)',
      },
    ]);
  });

  it.each([
    ['1e3', 'Row 1 (AAPL): weight "1e3" uses exponent notation; write the number out in full'],
    ['1,5', 'Row 1 (AAPL): weight "1,5" uses a comma: use a dot (1.5)'],
    [
      '1;5',
      'Row 1 (AAPL): weight "1;5" holds more than one value; a row takes one weight (remove the extra column or words)',
    ],
    ['NaN', 'Row 1 (AAPL): weight "NaN" is not a number'],
    ['Infinity', 'Row 1 (AAPL): weight "Infinity" is not a number'],
    ['+5', 'Row 1 (AAPL): weight "+5" has a plus sign; write the number without it'],
    ['.5', 'Row 1 (AAPL): weight ".5" needs a digit on each side of the dot'],
    ['5.', 'Row 1 (AAPL): weight "5." needs a digit on each side of the dot'],
    ['five', 'Row 1 (AAPL): weight "five" is not a decimal number'],
    ['1.5e', 'Row 1 (AAPL): weight "1.5e" is not a decimal number'],
    ['5%', 'Row 1 (AAPL): weight "5%" has a % sign; leave it out, weights are already percentages'],
  ])('weight-not-decimal for %j', (weight, message) => {
    expect(validateDraft([row('AAPL', weight)]).rows[0]!.errors).toEqual([
      { code: 'weight-not-decimal', field: 'weight', message },
    ]);
  });

  it('weight-out-of-range above 98 and below 0', () => {
    const v = validateDraft([row('AAPL', '120'), row('MSFT', '-0.5'), row('X', '98.0000001')]);
    expect(v.rows[0]!.errors).toEqual([
      {
        code: 'weight-out-of-range',
        field: 'weight',
        message: 'Row 1 (AAPL): weight 120 is above 98, the most one position can hold',
      },
    ]);
    expect(v.rows[1]!.errors[0]!.message).toBe(
      'Row 2 (MSFT): weight -0.5 is below 0; use 0 to remove a position',
    );
    expect(v.rows[2]!.errors[0]!.code).toBe('weight-out-of-range');
  });

  it('accepts the bounds 0 and 98 whatever their spelling', () => {
    expect(codes([row('A', '98.000')], 0)).toEqual([]);
    expect(validateDraft([row('A', '0.00'), row('B', '1')]).valid).toBe(true);
  });

  it('a row can carry a symbol and a weight error at once', () => {
    expect(codes([row('', 'abc')], 0)).toEqual(['symbol-empty', 'weight-not-decimal']);
  });

  it('shortens very long inputs in messages', () => {
    const message = validateDraft([row('AAPL', 'x'.repeat(500))]).rows[0]!.errors[0]!.message;
    expect(message.length).toBeLessThan(120);
  });
});

describe('validateDraft: the whole draft', () => {
  it('no-positions for a draft without rows, with cash 100', () => {
    const v = validateDraft([]);
    expect(v.errors).toEqual([
      { code: 'no-positions', message: 'The draft has no rows; add at least one position.' },
    ]);
    expect([v.total, v.cash, v.valid]).toEqual(['0', '100', false]);
  });

  it('total-over-98 says by how much, and cash is still shown', () => {
    const v = validateDraft([row('A', '50'), row('B', '48.5')]);
    expect(v.errors).toEqual([
      {
        code: 'total-over-98',
        message:
          'Weights add up to 98.5, above 98: cash must stay at least 2. Reduce the weights by 0.5.',
      },
    ]);
    expect(v.cash).toBe('1.5');
    expect(v.rows.every((r) => r.errors.length === 0)).toBe(true);
    expect(v.valid).toBe(false);
  });

  it('a total of exactly 98 is allowed', () => {
    expect(validateDraft([row('A', '49'), row('B', '49.000')]).valid).toBe(true);
  });

  it('counts out-of-range weights in the total, not undecimal ones', () => {
    const v = validateDraft([row('A', '120'), row('B', 'abc'), row('C', '1.25')]);
    expect([v.total, v.cash]).toEqual(['121.25', '-21.25']);
  });

  it('too-many-rows above 1,000 rows', () => {
    const rows = Array.from({ length: 1001 }, (_, i) => row(`S${i}`, '0.01'));
    const v = validateDraft(rows);
    expect(v.errors).toEqual([
      {
        code: 'too-many-rows',
        message: 'The draft has 1,001 rows; a version holds at most 1,000 positions. Remove 1 row.',
      },
    ]);
    expect(validateDraft(rows.slice(0, 1000)).valid).toBe(true);
  });

  it('too-many-positions when the left-out target symbols push the request past 1,000', () => {
    const rows = Array.from({ length: 999 }, (_, i) => row(`S${i}`, '0.01'));
    const previousTarget = [
      { symbol: 'OLD1', weight: '1' },
      { symbol: 'OLD2', weight: '1' },
      { symbol: 'S0', weight: '1' },
      { symbol: 'GONE', weight: '0' },
    ];
    const v = validateDraft(rows, { previousTarget });
    expect(v.errors.map((e) => e.code)).toEqual(['too-many-positions']);
    expect(v.errors[0]!.message).toContain(
      'would send 1,001 positions: its 999 rows plus 2 symbols',
    );
    expect(validateDraft(rows, { previousTarget: previousTarget.slice(1) }).valid).toBe(true);
  });

  it('an all-zero draft is allowed only with a current target', () => {
    const rows = [row('AAPL', '0'), row('MSFT', '0.00')];
    const without = validateDraft(rows);
    expect(without.errors.map((e) => e.code)).toEqual(['nothing-to-execute']);
    expect(without.errors[0]!.message).toMatch(
      /^Every weight is 0 and the strategy has no current target/,
    );
    expect(validateDraft(rows, { previousTarget: [{ symbol: 'AAPL', weight: '0' }] }).valid).toBe(
      false,
    );
    const withTarget = validateDraft(rows, { previousTarget: [{ symbol: 'AAPL', weight: '10' }] });
    expect(withTarget.valid).toBe(true);
    expect(withTarget.cash).toBe('100');
  });

  it('keeps more than 20 significant digits exact', () => {
    const v = validateDraft([
      row('A', '12.34567890123456789012345'),
      row('B', '0.00000000000000000000001'),
    ]);
    expect(v.total).toBe('12.34567890123456789012346');
    expect(v.cash).toBe('87.65432109876543210987654');
  });
});

describe('parseImportedWeight', () => {
  it.each([
    ['5', '5'],
    [' 12.50 ', '12.50'],
    ['12.5%', '12.5'],
    ['12.5 % ', '12.5'],
    ['0', '0'],
  ])('accepts %j as %j', (input, value) => {
    expect(parseImportedWeight(input)).toEqual({ ok: true, value });
  });

  it.each([
    ['1e3', /exponent/],
    ['1,5%', /comma/],
    ['%', /empty/],
    ['', /empty/],
    ['5%%', /more than one % sign/],
    ['NaN', /not a number/],
    ['+5', /plus/],
  ])('rejects %j', (input, error) => {
    const parsed = parseImportedWeight(input);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(error);
  });
});
