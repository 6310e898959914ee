import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../shared/decimal';
import { SCOPES, tokenResponse, version as versionSchema } from '../../../shared/domain/resources';
import { DEMO_STRATEGY_IDS as IDS } from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { PRICES } from '../../../electron/sandbox/prices';
import { admin, call, executePath, tokenFor, type Answer } from '../../support/sandbox-http';

/**
 * Property tests over real HTTP: whatever arrives, the sandbox answers with a
 * documented status and shape, and keeps answering. One shared sandbox, keep-alive.
 */

let sandbox: RunningSandbox;
let url: string;
let manager: string;
const RUNS = 1000;
const SEED = 20_261_129;

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
  manager = await tokenFor(url, 'manager');
});
afterAll(() => sandbox.close());

const symbols = fc.oneof(
  fc.constantFrom(...Object.keys(PRICES), 'aapl', 'ZZZ', '', ' AAPL', 'BRK-B'),
  fc.string({ maxLength: 8 }),
);
const decimalText = fc
  .tuple(
    fc.integer({ min: -5, max: 120 }),
    fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }),
  )
  .map(([whole, fraction]) => (fraction === undefined ? `${whole}` : `${whole}.${fraction}`));
const weights = fc.oneof(
  { weight: 4, arbitrary: decimalText },
  fc.constantFrom('0', '98', '98.0000001', '1e2', '1,5', '+3', '.5', 'NaN', ' 5', '', '-0'),
  fc.string({ maxLength: 6 }),
  fc.double(),
  fc.integer(),
  fc.constant(null),
);
const positions = fc.array(
  fc.record(
    { symbol: fc.oneof({ weight: 4, arbitrary: symbols }, fc.jsonValue()), weight: weights },
    { requiredKeys: [] },
  ),
  { maxLength: 12 },
);
const executeBodies = fc.oneof(
  { weight: 6, arbitrary: positions.map((p) => JSON.stringify({ data: { positions: p } })) },
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.record({ data: fc.jsonValue() }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 30 }),
);

/** Resource errors: {errors: {detail: string, ...}}. */
function expectResourceError(answer: Answer) {
  expect(typeof answer.json?.errors?.detail, answer.text).toBe('string');
}

/** The sandbox still serves a normal request. */
async function stillAnswers() {
  const answer = await call(url, 'GET', `/api/v1/strategies/${IDS.coreEquity}`, { token: manager });
  expect(answer.status).toBe(200);
}

describe('fuzzing', () => {
  it(`execute bodies (${RUNS} cases): 202, 400 or 422 with the documented shapes`, async () => {
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        executeBodies,
        fc.constantFrom(IDS.freshStart, IDS.coreEquity, IDS.dividendGrowth),
        fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), { nil: undefined }),
        async (body, strategyId, key) => {
          const answer = await call(url, 'POST', executePath(strategyId), {
            token: manager,
            body,
            headers: {
              'content-type': 'application/json',
              ...(key ? { 'idempotency-key': key } : {}),
            },
          });
          expect([202, 400, 422], answer.text).toContain(answer.status);
          seen.add(answer.status);
          if (answer.status !== 202) return expectResourceError(answer);
          const v = versionSchema.parse(answer.json.data);
          expect(answer.headers.location).toContain(v.id);
          // Replays return the first answer, so check cash_weight against the version's own positions.
          const sent = v.positions!.reduce((sum, p) => sum.plus(p.weight), new Decimal(0));
          expect(new Decimal(100).minus(sent).eq(v.cash_weight)).toBe(true);
        },
      ),
      // One seed: the same 1,000 bodies each run, so "every outcome reached" below is a fact of
      // the generators, not a chance (a random run once reached no 202 at all).
      { numRuns: RUNS, seed: SEED },
    );
    // The generators reach every outcome, so the property is not vacuous.
    expect([...seen].sort()).toEqual([202, 400, 422]);
    await stillAnswers();
  });

  it(`token bodies (${RUNS} cases): 200 with a token, or 400/401 OAuth2 errors`, async () => {
    const clientIds = fc.oneof(
      fc.constantFrom('demo-manager', 'demo-viewer', 'other-manager'),
      fc.jsonValue(),
    );
    const secrets = fc.oneof(fc.constantFrom('demo-secret', 'other-secret'), fc.jsonValue());
    const scopes = fc.oneof(
      fc.subarray([...SCOPES]).map((s) => s.join(' ')),
      fc.string({ maxLength: 20 }),
      fc.jsonValue(),
    );
    const bodies = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .record(
            { client_id: clientIds, client_secret: secrets, scope: scopes },
            { requiredKeys: [] },
          )
          .map((b) => JSON.stringify(b)),
      },
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 30 }),
    );
    const basic = fc.option(
      fc
        .tuple(
          fc.constantFrom('demo-manager', 'demo-viewer', 'x'),
          fc.constantFrom('demo-secret', 'no'),
        )
        .map(([id, secret]) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`),
      { nil: undefined },
    );
    const contentTypes = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      undefined,
    );
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(bodies, basic, contentTypes, async (body, authorization, contentType) => {
        const headers: Record<string, string> = {};
        if (authorization) headers.authorization = authorization;
        if (contentType) headers['content-type'] = contentType;
        const answer = await call(url, 'POST', '/api/auth/token', { body, headers });
        expect([200, 400, 401], answer.text).toContain(answer.status);
        seen.add(answer.status);
        if (answer.status === 200) {
          tokenResponse.parse(answer.json);
        } else {
          expect(['invalid_request', 'invalid_scope', 'invalid_client']).toContain(
            answer.json?.error,
          );
          expect(typeof answer.json.error_description).toBe('string');
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect([...seen].sort()).toEqual([200, 400, 401]);
    await stillAnswers();
  });

  it(`request headers (${RUNS} cases): Authorization, Content-Type, Idempotency-Key`, async () => {
    const viewer = await tokenFor(url, 'viewer');
    const headerText = fc.stringMatching(/^[\x21-\x7e][\x20-\x7e]{0,40}$/);
    const authorizations = fc.oneof(
      fc.constantFrom(
        `Bearer ${manager}`,
        `Bearer ${viewer}`,
        `bearer ${manager}`,
        'Bearer',
        'Basic abc',
      ),
      headerText.map((t) => `Bearer ${t}`),
      headerText,
      fc.constant(undefined),
    );
    const contentTypes = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/vnd.api+json',
        'text/plain',
        'multipart/form-data; boundary=x',
        ';;;',
      ),
      headerText,
      fc.constant(undefined),
    );
    const keys = fc.oneof(
      headerText,
      fc.constant(undefined),
      fc.constantFrom('k', 'x'.repeat(300)),
    );
    const routes = fc.constantFrom<[string, string]>(
      ['POST', executePath(IDS.freshStart)],
      ['POST', executePath(IDS.otherFund)],
      ['GET', `/api/v1/strategies/${IDS.coreEquity}?include=positions`],
      [
        'DELETE',
        `/api/v1/strategies/${IDS.freshStart}/versions/00000000-0000-4000-8000-000000000000`,
      ],
    );
    const body = JSON.stringify({ data: { positions: [{ symbol: 'SPY', weight: '10' }] } });
    await fc.assert(
      fc.asyncProperty(
        routes,
        authorizations,
        contentTypes,
        keys,
        async ([method, path], authorization, contentType, key) => {
          const headers: Record<string, string> = {};
          if (authorization !== undefined) headers.authorization = authorization;
          if (contentType !== undefined) headers['content-type'] = contentType;
          if (key !== undefined) headers['idempotency-key'] = key;
          const answer = await call(url, method, path, {
            headers,
            body: method === 'POST' ? body : undefined,
          });
          expect([200, 202, 400, 401, 403, 404, 422], answer.text).toContain(answer.status);
          if (answer.status === 401 || answer.status === 403) {
            expect(answer.headers['www-authenticate']).toMatch(/^Bearer realm="sandbox"/);
            expect(['invalid_token', 'insufficient_scope']).toContain(answer.json.error);
          } else if (answer.status >= 400) {
            expectResourceError(answer);
          }
        },
      ),
      { numRuns: RUNS },
    );
    await stillAnswers();
    const counters = await admin(url, 'GET', '/sandbox/counters');
    expect(counters.status).toBe(200);
  });
});
