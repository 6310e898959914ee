import { describe, expect, it } from 'vitest';
import { compareVersionWithDraft } from '../../../../electron/core/versions/draft-vs-version';

describe('an unexecuted version against the draft that would replace it', () => {
  it('names what only one of them targets, and where weights differ, differences first', () => {
    const comparison = compareVersionWithDraft(
      {
        positions: [
          { symbol: 'JNJ', weight: '10', action: 'CHANGE' },
          { symbol: 'PG', weight: '12', action: 'IGNORE' },
          { symbol: 'XOM', weight: '0', action: 'REMOVE' },
          { symbol: 'CVX', weight: '8', action: 'ADD' },
          { symbol: 'T', weight: '0', action: 'REMOVE' },
        ],
        cashWeight: '70',
      },
      {
        draftId: '11111111-2222-4333-8444-555555555555',
        draftName: 'KO down',
        positions: [
          { symbol: 'JNJ', weight: '12.0' },
          { symbol: 'PG', weight: '12.00' },
          { symbol: 'XOM', weight: '8' },
          { symbol: 'KO', weight: '9' },
          { symbol: 'T', weight: '0' },
        ],
        cashWeight: '59',
      },
    );
    expect(comparison.rows).toEqual([
      {
        symbol: 'JNJ',
        versionWeight: '10',
        draftWeight: '12.0',
        versionAction: 'CHANGE',
        difference: 'weights-differ',
      },
      {
        symbol: 'XOM',
        versionWeight: '0',
        draftWeight: '8',
        versionAction: 'REMOVE',
        difference: 'only-draft',
      },
      {
        symbol: 'CVX',
        versionWeight: '8',
        draftWeight: '0',
        versionAction: 'ADD',
        difference: 'only-version',
      },
      {
        symbol: 'KO',
        versionWeight: '0',
        draftWeight: '9',
        versionAction: null,
        difference: 'only-draft',
      },
      // Equal as decimals, whatever the places; a symbol neither targets is left out (T).
      {
        symbol: 'PG',
        versionWeight: '12',
        draftWeight: '12.00',
        versionAction: 'IGNORE',
        difference: 'same',
      },
    ]);
    expect(comparison.cash).toEqual({ version: '70', draft: '59' });
    expect(comparison.draftName).toBe('KO down');
  });
});
