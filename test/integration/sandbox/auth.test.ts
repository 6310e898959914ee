import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox/demo-data';
import { startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import {
  admin,
  call,
  executePath,
  target,
  tokenFor,
  versionPath,
} from '../../support/sandbox-http';

let sandbox: RunningSandbox;
let url: string;
const TOKEN = '/api/auth/token';
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const ALL_SCOPES =
  'strategies:read strategy_versions:create strategy_versions:read strategy_versions:execute strategy_versions:delete';

beforeAll(async () => {
  sandbox = await startSandbox({ stepMs: 0 });
  url = sandbox.baseUrl;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  expect((await admin(url, 'POST', '/sandbox/reset')).status).toBe(204);
});

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('token endpoint', () => {
  it('issues a bearer token for JSON credentials with every scope of the client', async () => {
    const answer = await call(url, 'POST', TOKEN, {
      body: { client_id: 'demo-manager', client_secret: 'demo-secret' },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: ALL_SCOPES,
    });
    expect(answer.json.access_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('accepts HTTP Basic credentials with an empty body or a JSON scope', async () => {
    const empty = await call(url, 'POST', TOKEN, {
      headers: { authorization: basic('demo-viewer', 'demo-secret') },
    });
    expect(empty.status).toBe(200);
    expect(empty.json.scope).toBe('strategies:read strategy_versions:read');
    const scoped = await call(url, 'POST', TOKEN, {
      headers: { authorization: basic('demo-viewer', 'demo-secret') },
      body: { scope: 'strategy_versions:read' },
    });
    expect(scoped.status).toBe(200);
    expect(scoped.json.scope).toBe('strategy_versions:read');
  });

  it('grants a requested subset of scopes, and only those', async () => {
    const token = await tokenFor(url, 'manager', 'strategy_versions:read strategies:read');
    expect((await call(url, 'GET', `/api/v1/strategies/${CORE}`, { token })).status).toBe(200);
    const denied = await call(url, 'POST', executePath(CORE), {
      token,
      body: target(['AAPL', '1']),
    });
    expect(denied.status).toBe(403);
    expect(denied.json.error).toBe('insufficient_scope');
  });

  it.each([
    ['a body that is not JSON', { body: '{nope', headers: { 'content-type': 'application/json' } }],
    ['no body at all', {}],
    ['a JSON array', { body: '[]', headers: { 'content-type': 'application/json' } }],
    ['a missing client_secret', { body: { client_id: 'demo-manager' } }],
    ['a client_id that is a number', { body: { client_id: 5, client_secret: 'x' } }],
    [
      'a scope that is not text',
      { body: { client_id: 'demo-manager', client_secret: 'demo-secret', scope: [1] } },
    ],
    [
      'a non-JSON content type',
      { body: 'client_id=demo-manager', headers: { 'content-type': 'text/plain' } },
    ],
    ['a bad grant_type', { body: { client_id: 'a', client_secret: 'b', grant_type: 'password' } }],
    ['a Bearer header instead of Basic', { headers: { authorization: 'Bearer abc' } }],
    [
      'credentials both in Basic and the body',
      {
        headers: { authorization: basic('demo-manager', 'demo-secret') },
        body: { client_id: 'demo-manager', client_secret: 'demo-secret' },
      },
    ],
  ])('answers 400 invalid_request for %s', async (_name, options) => {
    const answer = await call(url, 'POST', TOKEN, options);
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
    expect(answer.json.error_description).toEqual(expect.any(String));
  });

  it('answers 400 invalid_request for a body over the size limit', async () => {
    const answer = await call(url, 'POST', TOKEN, {
      body: JSON.stringify({ client_id: 'x'.repeat(1_100_000), client_secret: 'y' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    expect(answer.json.error).toBe('invalid_request');
  });

  it('answers 401 invalid_client for a wrong secret, with a Basic challenge when Basic was used', async () => {
    const json = await call(url, 'POST', TOKEN, {
      body: { client_id: 'demo-manager', client_secret: 'wrong' },
    });
    expect(json.status).toBe(401);
    expect(json.json.error).toBe('invalid_client');
    const viaBasic = await call(url, 'POST', TOKEN, {
      headers: { authorization: basic('nobody', 'demo-secret') },
    });
    expect(viaBasic.status).toBe(401);
    expect(viaBasic.json.error).toBe('invalid_client');
    expect(viaBasic.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('answers 400 invalid_scope for a scope the client does not have, or an empty scope', async () => {
    for (const scope of ['strategy_versions:execute', 'strategies:read admin', '  ']) {
      const answer = await call(url, 'POST', TOKEN, {
        body: { client_id: 'demo-viewer', client_secret: 'demo-secret', scope },
      });
      expect(answer.status, scope).toBe(400);
      expect(answer.json.error).toBe('invalid_scope');
    }
  });
});

describe('bearer tokens on resource endpoints', () => {
  it('answers 401 invalid_token with an RFC 6750 challenge when the token is missing', async () => {
    const answer = await call(url, 'GET', `/api/v1/strategies/${CORE}`);
    expect(answer.status).toBe(401);
    expect(answer.json.error).toBe('invalid_token');
    expect(answer.headers['www-authenticate']).toBe('Bearer realm="sandbox"');
  });

  it.each([['Bearer not-a-real-token'], ['Basic Zm9vOmJhcg=='], ['Bearer'], ['token']])(
    'answers 401 invalid_token for Authorization: %s',
    async (authorization) => {
      const answer = await call(url, 'GET', `/api/v1/strategies/${CORE}`, {
        headers: { authorization },
      });
      expect(answer.status).toBe(401);
      expect(answer.json.error).toBe('invalid_token');
      expect(answer.headers['www-authenticate']).toMatch(
        /^Bearer realm="sandbox", error="invalid_token"/,
      );
    },
  );

  it('expires tokens after token_lifetime_s', async () => {
    await admin(url, 'PUT', '/sandbox/faults', { token_lifetime_s: 1 });
    const issued = await call(url, 'POST', TOKEN, {
      body: { client_id: 'demo-manager', client_secret: 'demo-secret' },
    });
    expect(issued.json.expires_in).toBe(1);
    const token = issued.json.access_token as string;
    expect((await call(url, 'GET', `/api/v1/strategies/${CORE}`, { token })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const expired = await call(url, 'GET', `/api/v1/strategies/${CORE}`, { token });
    expect(expired.status).toBe(401);
    expect(expired.json.error_description).toMatch(/expired/);
  });

  it('answers 403 insufficient_scope naming the scope, with a challenge, for a viewer executing or deleting', async () => {
    const token = await tokenFor(url, 'viewer');
    const execute = await call(url, 'POST', executePath(CORE), {
      token,
      body: target(['AAPL', '1']),
    });
    expect(execute.status).toBe(403);
    expect(execute.json).toMatchObject({
      error: 'insufficient_scope',
      scope: 'strategy_versions:create strategy_versions:execute',
    });
    expect(execute.headers['www-authenticate']).toMatch(
      /^Bearer realm="sandbox", error="insufficient_scope", error_description="[^"]+", scope="strategy_versions:create strategy_versions:execute"$/,
    );
    const remove = await call(
      url,
      'DELETE',
      versionPath(DEMO_STRATEGY_IDS.dividendGrowth, DEMO_VERSION_IDS.dividendGrowthScheduled),
      { token },
    );
    expect(remove.status).toBe(403);
    expect(remove.json.error_description).toMatch(/strategy_versions:delete/);
    // The viewer can read.
    expect(
      (await call(url, 'GET', versionPath(CORE, DEMO_VERSION_IDS.coreEquityExecuted), { token }))
        .status,
    ).toBe(200);
  });

  it('needs strategies:read to read a strategy and strategy_versions:read to read a version', async () => {
    const versionsOnly = await tokenFor(url, 'manager', 'strategy_versions:read');
    const strategy = await call(url, 'GET', `/api/v1/strategies/${CORE}`, { token: versionsOnly });
    expect(strategy.status).toBe(403);
    expect(strategy.json.scope).toBe('strategies:read');
    const strategiesOnly = await tokenFor(url, 'manager', 'strategies:read');
    const version = await call(url, 'GET', versionPath(CORE, DEMO_VERSION_IDS.coreEquityExecuted), {
      token: strategiesOnly,
    });
    expect(version.status).toBe(403);
    expect(version.json.scope).toBe('strategy_versions:read');
  });
});
