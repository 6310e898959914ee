import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/core/api';
import { FRESH_START, useClientSandbox } from '../../support/client-sandbox';

/** Each error answer the service may give, sent once by the sandbox over real HTTP. */
const h = useClientSandbox();

const body = { data: { positions: [{ symbol: 'FOO', weight: '10' }] } };
const VERSION = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** The error of an execute (or a delete) answered with exactly this status and body. */
async function answeredWith(
  status: number,
  text: string,
  options: { contentType?: string; call?: 'execute' | 'delete' } = {},
): Promise<ServiceError> {
  const c = h.client({ retry: { attempts: 1 } });
  await c.getToken();
  await h.admin('PUT', '/sandbox/faults', {
    reply_next: {
      status,
      body: text,
      ...(options.contentType && { content_type: options.contentType }),
    },
  });
  const call =
    options.call === 'delete'
      ? c.deleteVersion(FRESH_START, VERSION)
      : c.executeVersion(FRESH_START, body, `key-${Math.random()}`);
  const error = await call.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  // Nothing was executed: the canned answer stood in for the route.
  expect((await h.counters()).executions_accepted[FRESH_START]).toBe(0);
  return error as ServiceError;
}

describe('422 bodies in every documented shape', () => {
  it('unknown symbols as a list: {errors: {detail, symbols}}', async () => {
    const e = await answeredWith(
      422,
      JSON.stringify({ errors: { detail: 'Unknown symbols.', symbols: ['FOO', 'BAR'] } }),
    );
    expect([e.kind, e.details.unknownSymbols, e.ambiguous]).toEqual([
      'unknown-symbols',
      ['FOO', 'BAR'],
      false,
    ]);
  });

  it.each([
    [
      'a list of objects per position',
      {
        errors: {
          positions: [{ symbol: ['unknown symbol FOO'] }, { symbol: ['unknown symbol BAR'] }],
        },
      },
    ],
    [
      'errors as a list of {field, message}',
      {
        errors: [
          { field: 'positions[0].symbol', message: 'unknown symbol: FOO' },
          { field: 'positions[1].symbol', message: 'unknown symbol: BAR' },
        ],
      },
    ],
    ['a top-level list beside the code', { error: 'unknown_symbols', symbols: ['FOO', 'BAR'] }],
    [
      'a top-level unknown_symbols list',
      { message: 'Unknown symbols', unknown_symbols: ['FOO', 'BAR'] },
    ],
  ])('unknown symbols in other shapes: %s', async (_where, answer) => {
    const e = await answeredWith(422, JSON.stringify(answer));
    expect([e.kind, e.details.unknownSymbols]).toEqual(['unknown-symbols', ['FOO', 'BAR']]);
  });

  it("a 422 in a shape nothing reads keeps the service's own words", async () => {
    const e = await answeredWith(422, JSON.stringify({ problem: { why: 'weights out of range' } }));
    expect(e.kind).toBe('validation');
    expect(e.message).toContain('weights out of range');
  });

  it.each([
    ['positions', { positions: ['unknown symbols: FOO, BAR'] }],
    ['data.positions (nested)', { data: { positions: ['Unknown symbols: FOO, BAR'] } }],
    ['data.positions (dotted)', { 'data.positions': ['unknown symbols: FOO, BAR'] }],
    [
      'symbols, as sentences',
      { symbols: ['The symbols FOO and BAR are unknown', 'unknown symbols: FOO, BAR'] },
    ],
    ['detail only', { detail: 'The service does not recognize these symbols: FOO, BAR.' }],
  ])('unknown symbols named in field errors under %s', async (_where, errors) => {
    const e = await answeredWith(422, JSON.stringify({ errors }));
    expect(e.kind).toBe('unknown-symbols');
    expect(e.details.unknownSymbols).toEqual(['FOO', 'BAR']);
    expect(e.message).toBe('The service does not know these symbols: FOO, BAR');
  });

  it('a 422 the app cannot read shows the service words, not a guess', async () => {
    const withId = await answeredWith(
      422,
      JSON.stringify({ errors: { detail: 'Blocked by compliance hold', version_id: VERSION } }),
    );
    expect(withId.kind).toBe('validation');
    expect(withId.message).toBe(
      'The service refused the request (status 422): Blocked by compliance hold',
    );
    expect(withId.serviceMessage).toBe('Blocked by compliance hold');
    const fieldsOnly = await answeredWith(
      422,
      JSON.stringify({ errors: { positions: ['row 3: weight has too many decimals'] } }),
    );
    expect([fieldsOnly.kind, fieldsOnly.details.unknownSymbols]).toEqual(['validation', undefined]);
    expect(fieldsOnly.message).toBe(
      'The service refused the request (status 422): positions: row 3: weight has too many decimals',
    );
    expect(fieldsOnly.serviceMessage).toBe('positions: row 3: weight has too many decimals');
  });

  it('OAuth-style {error, error_description}', async () => {
    const e = await answeredWith(
      422,
      JSON.stringify({
        error: 'unprocessable_entity',
        error_description: 'Target rejected by risk checks',
      }),
    );
    expect([e.kind, e.details.code, e.serviceMessage]).toEqual([
      'validation',
      'unprocessable_entity',
      'Target rejected by risk checks',
    ]);
    expect(e.message).toBe(
      'The service refused the request (status 422): Target rejected by risk checks',
    );
  });

  it('a plain text body', async () => {
    const e = await answeredWith(422, 'Unknown symbols: FOO, BAR', { contentType: 'text/plain' });
    expect([e.kind, e.details.unknownSymbols]).toEqual(['unknown-symbols', ['FOO', 'BAR']]);
    const other = await answeredWith(422, 'Market closed for this strategy', {
      contentType: 'text/plain',
    });
    expect(other.message).toBe(
      'The service refused the request (status 422): Market closed for this strategy',
    );
  });

  it('an empty body, on execute and on delete: no guess about what it meant', async () => {
    const execute = await answeredWith(422, '');
    expect([execute.kind, execute.message]).toEqual([
      'validation',
      'The service refused the request (status 422) without saying why',
    ]);
    const del = await answeredWith(422, '', { call: 'delete' });
    expect([del.kind, del.message]).toEqual([
      'validation',
      'The service refused the request (status 422) without saying why',
    ]);
  });

  it('the documented cases are still read as such', async () => {
    const executed = await answeredWith(
      422,
      JSON.stringify({ errors: { detail: 'An executed version cannot be deleted.' } }),
      { call: 'delete' },
    );
    expect(executed.kind).toBe('version-executed');
    const unexecuted = await answeredWith(
      422,
      JSON.stringify({
        errors: { detail: 'A version was not executed; delete it first.', version_id: VERSION },
      }),
    );
    expect([unexecuted.kind, unexecuted.details.versionId]).toEqual([
      'unexecuted-version',
      VERSION,
    ]);
  });
});
