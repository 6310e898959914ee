import { describe, expect, it } from 'vitest';
import { createDraftAnalyzer } from '../../../shared/draft/analyzer';
import { validateDraft } from '../../../shared/draft/validate';

const target = [
  { symbol: 'AAPL', weight: '10' },
  { symbol: 'MSFT', weight: '20' },
];
const rows = [
  { symbol: 'AAPL', weight: '9.5' },
  { symbol: 'MSFT', weight: '20.5' },
  { symbol: 'NVDA', weight: '1' },
  { symbol: 'TSLA', weight: '0' },
];

describe('a liquidate-only strategy in the grid', () => {
  it('marks every increase and every new symbol on its row, with the reason', () => {
    const v = validateDraft(rows, { previousTarget: target, liquidateOnly: true });
    expect(v.valid).toBe(false);
    expect(v.rows.map((r) => r.errors.map((e) => e.code))).toEqual([
      [],
      ['liquidate-only-increase'],
      ['liquidate-only-increase'],
      [],
    ]);
    expect(v.rows[1]!.errors[0]).toMatchObject({
      field: 'weight',
      message:
        'Row 2 (MSFT): the strategy is liquidate-only, so no weight may rise; MSFT would rise from 20 to 20.5',
    });
    expect(v.rows[2]!.errors[0]!.message).toContain('NVDA is not in the current target');
    expect(validateDraft(rows, { previousTarget: target }).valid).toBe(true);
  });

  it('with no known target, any weight above 0 is refused and the message says why', () => {
    const v = validateDraft([{ symbol: 'KO', weight: '2' }], {
      liquidateOnly: true,
      targetUnknown: true,
    });
    expect(v.rows[0]!.errors[0]!.message).toContain('no current target is known here');
  });

  it('the editor answers like the one-shot validator, keystroke by keystroke', () => {
    const analyzer = createDraftAnalyzer(target, [], { liquidateOnly: true });
    const edited = rows.map((r) => ({ ...r }));
    analyzer.update(edited, null);
    edited[0] = { symbol: 'AAPL', weight: '11' };
    const update = analyzer.update(edited, [0]);
    const once = validateDraft(edited, { previousTarget: target, liquidateOnly: true });
    expect(update.validated.map((r) => r.errors)).toEqual(once.rows.map((r) => r.errors));
    expect(update.valid).toBe(false);
  });
});
