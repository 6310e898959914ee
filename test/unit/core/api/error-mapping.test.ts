import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyReply } from 'fastify';
import {
  ServiceError,
  parseErrorBody,
  scopeFromWwwAuthenticate,
} from '../../../../electron/core/api';
import { STRATEGY_ID, VERSION_ID, clientFor, startFake } from './fake-service';
import type { FakeService } from './fake-service';

let f: FakeService | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await f?.close();
  f = undefined;
});

const body = { data: { positions: [{ symbol: 'FOO', weight: '10' }] } };

/** Answer every resource call with `respond`, then run `call` and return its error. */
async function failWith(
  respond: (reply: FastifyReply) => unknown,
  call: 'get' | 'execute' | 'delete' = 'get',
  token: Parameters<typeof startFake>[1] = {},
): Promise<ServiceError> {
  f = await startFake((app) => {
    app.get('/api/v1/strategies/:id', async (_req, reply) => respond(reply));
    app.post('/api/v1/strategies/:id/versions/execute', async (_req, reply) => respond(reply));
    app.delete('/api/v1/strategies/:id/versions/:vid', async (_req, reply) => respond(reply));
  }, token);
  const c = clientFor(f, { retry: { attempts: 1 } });
  closers.push(() => c.close());
  const p =
    call === 'get'
      ? c.getStrategy(STRATEGY_ID)
      : call === 'execute'
        ? c.executeVersion(STRATEGY_ID, body, 'k-1')
        : c.deleteVersion(STRATEGY_ID, VERSION_ID);
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

describe('error bodies', () => {
  it('parses the OAuth2 format and the errors format', () => {
    expect(parseErrorBody('{"error":"invalid_scope","error_description":"nope"}')).toMatchObject({
      code: 'invalid_scope',
      description: 'nope',
    });
    expect(
      parseErrorBody(
        '{"errors":{"detail":"Bad","symbols":["FOO"],"version_id":"x","weight":["too big"]}}',
      ),
    ).toEqual({
      description: 'Bad',
      unknownSymbols: ['FOO'],
      versionId: 'x',
      fields: { weight: ['too big'] },
    });
  });

  it('tolerates HTML, empty, garbage and truncated bodies', () => {
    expect(parseErrorBody('<html><h1>502</h1></html>')).toEqual({ fields: {} });
    expect(parseErrorBody('')).toEqual({ fields: {} });
    expect(parseErrorBody('\u0000\u00ff\u0001binary')).toEqual({ fields: {} });
    expect(parseErrorBody('{"errors": {"detail": "cut')).toEqual({ fields: {} });
    expect(parseErrorBody('[1,2]')).toEqual({ fields: {} });
    expect(parseErrorBody('Service temporarily down')).toEqual({
      fields: {},
      description: 'Service temporarily down',
    });
  });

  it('reads the scope parameter of WWW-Authenticate', () => {
    expect(
      scopeFromWwwAuthenticate(
        'Bearer realm="api", error="insufficient_scope", scope="strategy_versions:execute"',
      ),
    ).toBe('strategy_versions:execute');
    expect(scopeFromWwwAuthenticate('Bearer error="invalid_token"')).toBeUndefined();
  });
});

describe('mapping answers to errors', () => {
  it('403 names the missing scope from WWW-Authenticate, among those not granted', async () => {
    const err = await failWith(
      (r) =>
        r
          .code(403)
          .header(
            'www-authenticate',
            'Bearer error="insufficient_scope", scope="strategy_versions:create strategy_versions:execute"',
          )
          .send({ error: 'insufficient_scope', error_description: 'Missing scope' }),
      'execute',
      { scope: 'strategies:read strategy_versions:read strategy_versions:create' },
    );
    expect(err.kind).toBe('forbidden');
    expect(err.message).toBe('This client lacks the scope strategy_versions:execute');
    expect(err.details.missingScope).toBe('strategy_versions:execute');
    expect(err.ambiguous).toBe(false);
  });

  it('403 names the scope from the body when the header has none', async () => {
    const err = await failWith((r) =>
      r.code(403).send({
        error: 'insufficient_scope',
        error_description: 'This operation requires the scope strategies:read',
      }),
    );
    expect(err.message).toBe('This client lacks the scope strategies:read');
  });

  it('422 unknown symbols lists them', async () => {
    const err = await failWith(
      (r) => r.code(422).send({ errors: { detail: 'Unknown symbols', symbols: ['FOO', 'BAR'] } }),
      'execute',
    );
    expect([err.kind, err.message, err.details.unknownSymbols, err.ambiguous]).toEqual([
      'unknown-symbols',
      'The service does not know these symbols: FOO, BAR',
      ['FOO', 'BAR'],
      false,
    ]);
  });

  it('422 unexecuted version carries its id, or says plainly that none was given', async () => {
    const withId = await failWith(
      (r) =>
        r.code(422).send({
          errors: {
            detail: 'An unexecuted version exists; delete it first',
            version_id: VERSION_ID,
          },
        }),
      'execute',
    );
    expect(withId.kind).toBe('unexecuted-version');
    expect(withId.details.versionId).toBe(VERSION_ID);
    expect(withId.message).toBe(`An unexecuted version (id ${VERSION_ID}) must be deleted first`);
    await f?.close();
    const withoutId = await failWith(
      (r) => r.code(422).send({ errors: { detail: 'The strategy has an unexecuted version' } }),
      'execute',
    );
    expect(withoutId.kind).toBe('unexecuted-version');
    expect(withoutId.details.versionId).toBeUndefined();
    expect(withoutId.message).toBe(
      'An unexecuted version exists for this strategy, but the service did not say which',
    );
  });

  it('422 distinguishes a running rebalance, liquidate-only, weights, executed-version delete', async () => {
    const cases: [object, 'execute' | 'delete', string][] = [
      [{ detail: 'A rebalance has not ended yet', version_id: VERSION_ID }, 'execute', 'conflict'],
      [{ detail: 'Conflict with an already executed version' }, 'execute', 'conflict'],
      [{ detail: 'The strategy is liquidate-only' }, 'execute', 'liquidate-only'],
      [{ detail: 'The target is not valid', weight: ['above 98'] }, 'execute', 'validation'],
      [{ detail: 'Idempotency-Key reused with another body' }, 'execute', 'idempotency-mismatch'],
      [{ detail: 'An executed version cannot be deleted' }, 'delete', 'version-executed'],
    ];
    for (const [errors, call, kind] of cases) {
      const err = await failWith((r) => r.code(422).send({ errors }), call);
      expect(err.kind, JSON.stringify(errors)).toBe(kind);
      await f?.close();
      f = undefined;
    }
  });

  it('turns HTML, empty and huge error bodies into a plain error without their markup', async () => {
    const html = await failWith((r) =>
      r.code(400).type('text/html').send('<html><script>x()</script>oops &amp; <b>more</b></html>'),
    );
    expect([html.kind, html.status, html.serviceMessage]).toEqual([
      'bad-request',
      400,
      'oops & more',
    ]);
    await f?.close();
    const empty = await failWith((r) => r.code(404).send(''));
    expect(empty.kind).toBe('not-found');
    await f?.close();
    const huge = await failWith((r) => r.code(400).type('text/plain').send('x'.repeat(5_000_000)));
    expect(huge.kind).toBe('bad-request');
    expect((huge.serviceMessage ?? '').length).toBeLessThan(400);
  });

  it('wrong types and malformed JSON on success are bad-response', async () => {
    const wrong = await failWith((r) => r.code(200).send({ data: { id: 5 } }));
    expect(wrong.kind).toBe('bad-response');
    expect(wrong.message).toMatch(/^The service's answer could not be read: /);
    await f?.close();
    const malformed = await failWith((r) => r.code(200).type('application/json').send('{"data":'));
    expect(malformed.kind).toBe('bad-response');
    await f?.close();
    const noLocation = await failWith((r) => r.code(202).send({ data: {} }), 'execute');
    expect([noLocation.kind, noLocation.ambiguous]).toEqual(['bad-response', true]);
  });
});
