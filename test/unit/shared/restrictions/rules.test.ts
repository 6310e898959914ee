import { describe, expect, it } from 'vitest';
import {
  classifyTarget,
  restrictionsInForce,
  type Restriction,
  type RestrictionKind,
  type RestrictionScope,
} from '../../../../shared/restrictions/rules';

let next = 0;
const rule = (
  kind: RestrictionKind,
  symbol: string,
  scope: RestrictionScope = { type: 'profile' },
  window: { from?: string; until?: string | null } = {},
): Restriction => ({
  id: `r-${++next}`,
  kind,
  symbol,
  scope,
  reason: `reason ${next}`,
  setBy: 'ana',
  from: window.from ?? '2026-01-01T00:00:00.000000Z',
  until: window.until ?? null,
});

const AT = '2026-11-28T09:00:00.000000Z';
const S = { strategyId: 's-1', tags: ['income'] };
const classify = (rules: Restriction[], rows: [string, string][], held: string[]) =>
  classifyTarget(
    rows.map(([symbol, weight]) => ({ symbol, weight })),
    new Set(held),
    restrictionsInForce(rules, S, AT),
  ).map((v) => [v.symbol, v.level]);

describe('restrictions in force', () => {
  it('applies profile, strategy and tag rules, within their window only', () => {
    const rules = [
      rule('hold', 'A'),
      rule('hold', 'B', { type: 'strategy', strategyId: 's-1' }),
      rule('hold', 'C', { type: 'strategy', strategyId: 's-2' }),
      rule('hold', 'D', { type: 'tag', tag: 'income' }),
      rule('hold', 'E', { type: 'tag', tag: 'growth' }),
      rule('hold', 'F', { type: 'profile' }, { from: '2026-12-01T00:00:00.000000Z' }),
      rule('hold', 'G', { type: 'profile' }, { until: AT }),
      rule('hold', 'H', { type: 'profile' }, { until: '2026-11-28T09:00:00.000001Z' }),
    ];
    expect([...restrictionsInForce(rules, S, AT).keys()].sort()).toEqual(['A', 'B', 'D', 'H']);
  });
});

describe('classifying a target against the rules', () => {
  it('a symbol not held given a weight breaks do-not-buy and hold for certain, not do-not-sell', () => {
    const rules = [rule('do-not-buy', 'A'), rule('hold', 'B'), rule('do-not-sell', 'C')];
    expect(
      classify(
        rules,
        [
          ['A', '5'],
          ['B', '1'],
          ['C', '3'],
          ['D', '4'],
        ],
        [],
      ),
    ).toEqual([
      ['A', 'certain'],
      ['B', 'certain'],
    ]);
  });

  it('a held symbol set to 0, or left out, breaks do-not-sell and hold for certain', () => {
    const rules = [rule('do-not-sell', 'A'), rule('hold', 'B'), rule('do-not-buy', 'C')];
    expect(
      classify(
        rules,
        [
          ['A', '0'],
          ['C', '0.00'],
        ],
        ['A', 'B', 'C'],
      ),
    ).toEqual([
      ['A', 'certain'],
      ['B', 'certain'],
    ]);
  });

  it('a held symbol that keeps a weight may trade either way: possible, whatever the rule', () => {
    const rules = [rule('do-not-sell', 'A'), rule('hold', 'B'), rule('do-not-buy', 'C')];
    expect(
      classify(
        rules,
        [
          ['a', '10'],
          ['B', '5'],
          ['C', '1'],
        ],
        ['A', 'B', 'C'],
      ),
    ).toEqual([
      ['A', 'possible'],
      ['B', 'possible'],
      ['C', 'possible'],
    ]);
  });

  it('symbols neither held nor given a weight, or without a rule, are fine', () => {
    const rules = [rule('hold', 'A'), rule('do-not-buy', 'B')];
    expect(
      classify(
        rules,
        [
          ['A', '0'],
          ['B', ''],
          ['X', '50'],
        ],
        ['Y'],
      ),
    ).toEqual([]);
  });

  it('names the symbol, the weight and every rule with its reason and who set it', () => {
    const rules = [rule('do-not-buy', 'A'), rule('hold', 'A', { type: 'tag', tag: 'income' })];
    const [violation] = classifyTarget(
      [{ symbol: 'A', weight: '2.5' }],
      new Set(),
      restrictionsInForce(rules, S, AT),
    );
    expect(violation!.restrictions).toHaveLength(2);
    expect(violation!.message).toMatch(
      /^A is not held and gets 2\.5 %: that buys it, against do not buy \(reason \d+, set by ana\); hold \(do not trade\) \(reason \d+, set by ana\)\.$/,
    );
  });

  it('lists certain violations first, each group by symbol', () => {
    const rules = ['D', 'C', 'B', 'A'].map((s) => rule('hold', s));
    expect(
      classify(
        rules,
        [
          ['D', '1'],
          ['C', '1'],
          ['B', '1'],
          ['A', '0'],
        ],
        ['D', 'A', 'B'],
      ),
    ).toEqual([
      ['A', 'certain'],
      ['C', 'certain'],
      ['B', 'possible'],
      ['D', 'possible'],
    ]);
  });
});
