import { describe, expect, it } from 'vitest';
import { createDraftAnalyzer } from '../../../../shared/draft/analyzer';
import {
  classifyTarget,
  restrictionsInForce,
  type Restriction,
} from '../../../../shared/restrictions/rules';

const AT = '2026-11-28T09:00:00.000Z';
const rule = (id: string, kind: Restriction['kind'], symbol: string): Restriction => ({
  id,
  kind,
  symbol,
  scope: { type: 'profile' },
  reason: 'Compliance',
  setBy: 'ana',
  from: '2026-01-01T00:00:00.000Z',
  until: null,
});
const RULES = restrictionsInForce(
  [rule('r1', 'do-not-buy', 'TSLA'), rule('r2', 'hold', 'AAPL'), rule('r3', 'do-not-sell', 'KO')],
  { strategyId: 's', tags: [] },
  AT,
);
const HOLDINGS = [
  { symbol: 'AAPL', quantity: '10' },
  { symbol: 'KO', quantity: '5' },
  { symbol: 'MSFT', quantity: '3' },
];
const levels = (vs: readonly { symbol: string; level: string }[]) =>
  vs.map((v) => `${v.symbol}:${v.level}`);

describe("the draft analyzer's restriction check", () => {
  it('classes the rows as the rules do, on analyze and on each keystroke', () => {
    const analyzer = createDraftAnalyzer([], HOLDINGS, { restrictions: RULES });
    let rows = [
      { symbol: 'AAPL', weight: '10' },
      { symbol: 'KO', weight: '5' },
      { symbol: 'MSFT', weight: '20' },
    ];
    expect(levels(analyzer.analyze(rows).restrictions)).toEqual(['AAPL:possible', 'KO:possible']);
    // Typing TSLA into MSFT's row buys it; KO set to 0 sells it all.
    rows = [rows[0]!, { symbol: 'KO', weight: '0' }, { symbol: 'tsla', weight: '20' }];
    const update = analyzer.update(rows, [1, 2]);
    expect(levels(update.restrictions)).toEqual(['KO:certain', 'TSLA:certain', 'AAPL:possible']);
    expect(levels(update.restrictions)).toEqual(
      levels(classifyTarget(rows, new Set(['AAPL', 'KO', 'MSFT']), RULES)),
    );
    // AAPL left out: held and sent at 0, against hold.
    expect(levels(analyzer.analyze(rows.slice(1)).restrictions)).toEqual([
      'AAPL:certain',
      'KO:certain',
      'TSLA:certain',
    ]);
  });

  it('says nothing without restrictions', () => {
    const analyzer = createDraftAnalyzer([], HOLDINGS);
    expect(analyzer.analyze([{ symbol: 'TSLA', weight: '5' }]).restrictions).toEqual([]);
  });
});
