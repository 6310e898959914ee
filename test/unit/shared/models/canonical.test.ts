import { describe, expect, it } from 'vitest';
import { revisionHash } from '../../../../electron/core/models/hash';
import { canonicalRows, canonicalText, canonicalWeight } from '../../../../shared/models/canonical';
import { compareWeights } from '../../../../shared/models/compare';
import { validateModelRows } from '../../../../shared/models/rules';

describe('the canonical form of model rows and its hash', () => {
  it('writes each weight one way with decimal.js', () => {
    expect(['5', '5.00', '05.0', '5.000000000000000000000001'].map(canonicalWeight)).toEqual([
      '5',
      '5',
      '5',
      '5.000000000000000000000001',
    ]);
    expect(canonicalWeight('0.50')).toBe('0.5');
    expect(canonicalWeight('-0')).toBe('0');
    expect(() => canonicalWeight('1e2')).toThrow(RangeError);
  });

  it('sorts upper-cased symbols and leaves rows at 0 out', () => {
    const rows = [
      { symbol: ' msft', weight: '30.50' },
      { symbol: 'AAPL', weight: '40' },
      { symbol: 'tsla', weight: '0.00' },
    ];
    expect(canonicalRows(rows)).toEqual([
      { symbol: 'AAPL', weight: '40' },
      { symbol: 'MSFT', weight: '30.5' },
    ]);
    expect(canonicalText(rows)).toBe('AAPL,40\nMSFT,30.5\n');
    expect(() => canonicalRows([...rows, { symbol: 'aapl', weight: '1' }])).toThrow(/AAPL/);
  });

  it('hashes the same weights the same however typed or ordered, and others differently', () => {
    const a = revisionHash([
      { symbol: 'AAPL', weight: '5' },
      { symbol: 'MSFT', weight: '10.10' },
    ]);
    const b = revisionHash([
      { symbol: 'msft', weight: '10.1' },
      { symbol: 'aapl', weight: '5.00' },
      { symbol: 'GOOG', weight: '0' },
    ]);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(
      revisionHash([
        { symbol: 'AAPL', weight: '5.01' },
        { symbol: 'MSFT', weight: '10.1' },
      ]),
    ).not.toBe(a);
    // SHA-256 of the text itself, so anyone can check a hash by hand.
    // SHA-256 of the canonical text "A,1\n" (sha256sum gives the same), so anyone can check it.
    expect(revisionHash([{ symbol: 'a', weight: '1.0' }])).toBe(
      'd4c008a8acb7f6f9535a67b8abf5d9fdd26306cdeaec886a2b279c6489994e8d',
    );
  });
});

describe('comparing two revisions', () => {
  it('lists added, removed and changed symbols with both weights, numerically', () => {
    const from = [
      { symbol: 'AAPL', weight: '40' },
      { symbol: 'MSFT', weight: '30' },
      { symbol: 'TSLA', weight: '10' },
      { symbol: 'XOM', weight: '0' },
    ];
    const to = [
      { symbol: 'AAPL', weight: '40.00' },
      { symbol: 'MSFT', weight: '25.5' },
      { symbol: 'NVDA', weight: '12' },
      { symbol: 'TSLA', weight: '0' },
    ];
    expect(compareWeights(from, to)).toEqual({
      added: [{ symbol: 'NVDA', from: '0', to: '12' }],
      removed: [{ symbol: 'TSLA', from: '10', to: '0' }],
      changed: [{ symbol: 'MSFT', from: '30', to: '25.5' }],
      unchanged: 1,
    });
  });
});

describe("a model's rules are the draft's", () => {
  it('refuses a weight above 98, a sum above 98, duplicates and an all-zero model, in words', () => {
    expect(
      validateModelRows([
        { symbol: 'AAPL', weight: '50' },
        { symbol: 'MSFT', weight: '48' },
      ]).valid,
    ).toBe(true);
    const over = validateModelRows([
      { symbol: 'AAPL', weight: '50' },
      { symbol: 'MSFT', weight: '48.01' },
    ]);
    expect(over.valid).toBe(false);
    expect(over.messages).toEqual([
      'Weights add up to 98.01, above 98: cash must stay at least 2. Reduce the weights by 0.01.',
    ]);
    expect(validateModelRows([{ symbol: 'AAPL', weight: '99' }]).messages[0]).toMatch(
      /Row 1 \(AAPL\).*above 98/,
    );
    expect(
      validateModelRows([
        { symbol: 'AAPL', weight: '1' },
        { symbol: 'aapl', weight: '2' },
      ]).valid,
    ).toBe(false);
    expect(validateModelRows([]).messages).toEqual([
      'The model has no rows; add at least one position.',
    ]);
    expect(validateModelRows([{ symbol: 'AAPL', weight: '0' }]).messages).toEqual([
      'Every weight is 0: give at least one position a weight above 0.',
    ]);
  });
});
