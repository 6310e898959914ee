import { describe, expect, it } from 'vitest';
import { parseErrorBody } from '../../../../electron/core/api';
import { errorFromResponse } from '../../../../electron/core/api/error-mapping';
import { htmlLines, pointerField, symbolsInText } from '../../../../electron/core/api/error-shapes';

const VERSION = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('error body shapes', () => {
  it.each([
    ['Unknown symbols: FOO, BAR', ['FOO', 'BAR']],
    ['The following symbols are not recognized: FOO and BAR.', ['FOO', 'BAR']],
    ["Symbol 'FOO' is not recognized", ['FOO']],
    ['FOO is not a valid symbol', ['FOO']],
    ['No such symbol: BRK.B', ['BRK.B']],
    ['Validation failed. Unknown symbols: FOO', ['FOO']],
    ['unknown symbols: see the documentation', []],
    ['Weight above 98', []],
  ])('symbols named in %j', (text, symbols) => {
    expect(symbolsInText(text)).toEqual(symbols);
  });

  it('reads an HTML page for its words, without its markup, scripts or styles', () => {
    expect(
      htmlLines(
        '<!DOCTYPE html><html><head><title>422</title><style>p{}</style></head><body><h1>Unprocessable</h1><script>alert(1)</script><p>Unknown symbols: FOO &amp; more</p></body></html>',
      ),
    ).toEqual(['Unprocessable', 'Unknown symbols: FOO & more']);
    expect(htmlLines('plain text')).toBeNull();
  });

  it('names a JSON pointer as a field', () => {
    expect(pointerField('/data/positions/3/weight')).toBe('data.positions[3].weight');
    expect(pointerField('/a~1b/c~0d')).toBe('a/b.c~d');
  });

  it('reads JSON:API errors: details under their fields, codes, ids in meta', () => {
    expect(
      parseErrorBody(
        JSON.stringify({
          errors: [
            {
              status: '422',
              title: 'Invalid',
              detail: 'too many decimals',
              source: { pointer: '/data/positions/0/weight' },
            },
            {
              status: '409',
              code: 'unexecuted_version',
              detail: 'Delete the unexecuted version first',
              meta: { version_id: VERSION },
            },
          ],
        }),
      ),
    ).toEqual({
      code: 'unexecuted_version',
      description: 'Delete the unexecuted version first',
      versionId: VERSION,
      fields: { 'data.positions[0].weight': ['too many decimals'] },
    });
  });

  it('tells an OAuth code from a sentence in `error`, and reads `{error: {...}}`', () => {
    expect(parseErrorBody('{"error":"invalid_request"}')).toMatchObject({
      code: 'invalid_request',
    });
    expect(parseErrorBody('{"error":"Unknown symbols: FOO"}')).toMatchObject({
      description: 'Unknown symbols: FOO',
    });
    expect(
      parseErrorBody(
        JSON.stringify({ error: { code: 'conflict', message: 'Busy', version_id: VERSION } }),
      ),
    ).toMatchObject({ code: 'conflict', description: 'Busy', versionId: VERSION });
  });

  it('reads RFC 9457 problem details: detail, else title', () => {
    expect(parseErrorBody('{"type":"about:blank","title":"Conflict","status":409}')).toMatchObject({
      description: 'Conflict',
    });
    expect(
      parseErrorBody('{"title":"Conflict","detail":"A rebalance is running","version_id":"v"}'),
    ).toMatchObject({ description: 'A rebalance is running', versionId: 'v' });
  });

  it('a 409 nothing more specific names is a conflict in the service words', () => {
    const e = errorFromResponse({
      operation: 'execute',
      status: 409,
      headers: {},
      text: '{"message":"Locked by compliance"}',
    });
    expect([e.kind, e.message]).toEqual([
      'conflict',
      'The request conflicts with the state of the strategy: Locked by compliance',
    ]);
  });

  it('a symbol pointed at is read from the request only for the rows it points at', () => {
    const requestBody = JSON.stringify({
      data: {
        positions: [
          { symbol: 'AAPL', weight: '10' },
          { symbol: 'ZZZQ', weight: '5' },
        ],
      },
    });
    const e = errorFromResponse({
      operation: 'execute',
      status: 422,
      headers: {},
      text: JSON.stringify({
        errors: [{ detail: 'does not exist', source: { pointer: '/data/positions/1/symbol' } }],
      }),
      requestBody,
    });
    expect([e.kind, e.details.unknownSymbols]).toEqual(['unknown-symbols', ['ZZZQ']]);
    // A message naming its symbol is taken at its word, wherever it points.
    const named = errorFromResponse({
      operation: 'execute',
      status: 422,
      headers: {},
      text: JSON.stringify({
        errors: [
          { detail: 'ZZZQ is not a known symbol', source: { pointer: '/data/positions/0/symbol' } },
        ],
      }),
      requestBody,
    });
    expect(named.details.unknownSymbols).toEqual(['ZZZQ']);
    const weight = errorFromResponse({
      operation: 'execute',
      status: 422,
      headers: {},
      text: JSON.stringify({
        errors: [{ detail: 'is not valid', source: { pointer: '/data/positions/1/weight' } }],
      }),
      requestBody,
    });
    expect(weight.kind).toBe('validation');
  });
});
