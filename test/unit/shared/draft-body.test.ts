import { describe, expect, it } from 'vitest';
import { executeRequest } from '../../../shared/domain/resources';
import { buildExecuteBody, InvalidDraftError } from '../../../shared/draft/execute-body';

describe('buildExecuteBody', () => {
  it('sends the rows as typed (trimmed, symbols upper-cased) and every left-out target symbol at 0', () => {
    const body = buildExecuteBody(
      [
        { symbol: ' aapl ', weight: ' 12.500 ' },
        { symbol: 'brk.b', weight: '0' },
      ],
      [
        { symbol: 'MSFT', weight: '20' },
        { symbol: 'AAPL', weight: '10' },
        { symbol: 'GOOG', weight: '0' },
      ],
    );
    expect(body).toEqual({
      data: {
        positions: [
          { symbol: 'AAPL', weight: '12.500' },
          { symbol: 'BRK.B', weight: '0' },
          { symbol: 'MSFT', weight: '0' },
        ],
      },
    });
    expect(executeRequest.parse(body)).toEqual(body);
  });

  it('works with no previous target', () => {
    expect(buildExecuteBody([{ symbol: 'SPY', weight: '98' }], [])).toEqual({
      data: { positions: [{ symbol: 'SPY', weight: '98' }] },
    });
  });

  it('an all-zero draft with a target removes everything', () => {
    const body = buildExecuteBody(
      [{ symbol: 'AAPL', weight: '0' }],
      [
        { symbol: 'AAPL', weight: '5' },
        { symbol: 'X', weight: '1' },
      ],
    );
    expect(body.data.positions).toEqual([
      { symbol: 'AAPL', weight: '0' },
      { symbol: 'X', weight: '0' },
    ]);
  });

  it('refuses an invalid draft with every message', () => {
    let caught: unknown;
    try {
      buildExecuteBody(
        [
          { symbol: 'AAPL', weight: '120' },
          { symbol: 'aapl', weight: '1' },
        ],
        [],
      );
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(InvalidDraftError);
    const error = caught as InvalidDraftError;
    expect(error.rowErrors.map((e) => e.code)).toEqual([
      'symbol-duplicate',
      'weight-out-of-range',
      'symbol-duplicate',
    ]);
    expect(error.draftErrors.map((e) => e.code)).toEqual(['total-over-98']);
    expect(error.messages).toContain(
      'Row 1 (AAPL): weight 120 is above 98, the most one position can hold',
    );
    expect(error.message).toMatch(/^The draft cannot be executed: Row 1 \(AAPL\)/);
  });

  it('refuses an empty draft even with a target', () => {
    expect(() => buildExecuteBody([], [{ symbol: 'AAPL', weight: '5' }])).toThrow(/no rows/);
  });
});
