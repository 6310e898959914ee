import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../electron/core/api';
import { ASSUMED_LIFETIME_S, TokenManager } from '../../../../electron/core/api/token-manager';
import { SECRET, STRATEGY_ID, clientFor, startFake, strategyBody } from './fake-service';
import type { FakeService } from './fake-service';

let f: FakeService | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await f?.close();
  f = undefined;
});
function client(extra: Parameters<typeof clientFor>[1] = {}) {
  const c = clientFor(f!, extra);
  closers.push(() => c.close());
  return c;
}

describe('token manager', () => {
  it('makes one token request for 100 concurrent calls and exposes the granted scopes', async () => {
    const seen = new Set<string>();
    f = await startFake(
      (app) =>
        app.get('/api/v1/strategies/:id', async (req) => {
          seen.add(String(req.headers.authorization));
          return strategyBody;
        }),
      { delayMs: 50, scope: 'strategies:read strategy_versions:read' },
    );
    const c = client();
    expect(c.grantedScopes()).toBeNull();
    await Promise.all(Array.from({ length: 100 }, () => c.getStrategy(STRATEGY_ID)));
    expect(f.tokenRequests()).toBe(1);
    expect(c.tokenRequestCount).toBe(1);
    expect(seen).toEqual(new Set(['Bearer tok-1-abcdef']));
    expect(c.grantedScopes()).toEqual(['strategies:read', 'strategy_versions:read']);
    expect(c.hasScope('strategy_versions:execute')).toBe(false);
  });

  it('renews a short-lived token at half-life without the caller noticing', async () => {
    f = await startFake(
      (app) =>
        app.get('/api/v1/strategies/:id', async (req, reply) => {
          // The fake expires tokens strictly after 1 s.
          const n = Number(String(req.headers.authorization).split('-')[1]);
          return n === f!.tokenRequests()
            ? strategyBody
            : reply.code(401).send({ error: 'invalid_token' });
        }),
      { expiresIn: 1 },
    );
    const c = client();
    await c.getStrategy(STRATEGY_ID);
    await new Promise((r) => setTimeout(r, 600));
    await c.getStrategy(STRATEGY_ID);
    expect(f.tokenRequests()).toBe(2);
  });

  it('on a 401 drops the token, gets one new token and retries once', async () => {
    let calls = 0;
    f = await startFake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) =>
        ++calls === 1 ? reply.code(401).send({ error: 'invalid_token' }) : strategyBody,
      ),
    );
    const c = client();
    await c.getStrategy(STRATEGY_ID);
    expect([calls, f.tokenRequests()]).toEqual([2, 2]);
  });

  it('a 401 that persists is unauthorized after exactly one retry', async () => {
    let calls = 0;
    f = await startFake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) => {
        calls++;
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer error="invalid_token"')
          .send({ error: 'invalid_token', error_description: 'Token expired' });
      }),
    );
    const err = (await client()
      .getStrategy(STRATEGY_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect([err.kind, calls, f.tokenRequests()]).toEqual(['unauthorized', 2, 2]);
  });

  it('maps invalid_client and never shows the secret, even if the service echoes it', async () => {
    f = await startFake((app) => app.get('/api/v1/strategies/:id', async () => strategyBody));
    const wrong = (await client({ getSecret: async () => 'wrong-secret-99' })
      .testConnection()
      .catch((e: unknown) => e)) as ServiceError;
    expect(wrong).toBeInstanceOf(ServiceError);
    expect(wrong.kind).toBe('invalid-client');
    expect(wrong.message).toBe('The service refused the client id or secret');

    await f.close();
    f = await startFake((app) => {
      app.addHook('onRequest', async (req, reply) => {
        if (req.url === '/api/auth/token')
          return reply
            .code(400)
            .send({ error: 'invalid_request', error_description: `bad ${SECRET}` });
      });
    });
    const echoed = (await client()
      .testConnection()
      .catch((e: unknown) => e)) as ServiceError;
    expect(echoed.kind).toBe('bad-request');
    expect(JSON.stringify({ m: echoed.message, s: echoed.serviceMessage })).not.toContain(SECRET);
  });

  it('a secret that cannot be read is a no-secret error and no request is made', async () => {
    f = await startFake(() => {});
    const err = (await client({
      getSecret: async () => {
        throw new Error('keychain locked');
      },
    })
      .testConnection()
      .catch((e: unknown) => e)) as ServiceError;
    expect([err.kind, f.tokenRequests()]).toEqual(['no-secret', 0]);
    expect(err.message).toMatch(/keychain locked/);
  });

  it('testConnection returns the granted scopes', async () => {
    f = await startFake(() => {}, { scope: 'strategies:read' });
    expect(await client().testConnection()).toEqual(['strategies:read']);
  });
});

describe('token answers without expires_in or scope', () => {
  /** A TokenManager on a clock the test moves, answering each token request with `body`. */
  function managerAnswering(body: Record<string, unknown>) {
    let clock = 1_000_000;
    let requests = 0;
    const manager = new TokenManager({
      clientId: 'c',
      getSecret: async () => SECRET,
      now: () => clock,
      postToken: async () => {
        requests++;
        return { status: 200, headers: {}, text: JSON.stringify(body) };
      },
    });
    return {
      manager,
      requests: () => requests,
      advance: (ms: number) => (clock += ms),
    };
  }

  it('assumes a short lifetime without expires_in and renews before it ends', async () => {
    const t = managerAnswering({ access_token: 'a', token_type: 'bearer', scope: 'x:y' });
    const info = await t.manager.info();
    expect(info.lifetimeKnown).toBe(false);
    expect(info.expiresAt - 1_000_000).toBe(ASSUMED_LIFETIME_S * 1000);
    await t.manager.authorization();
    expect(t.requests()).toBe(1);
    t.advance((ASSUMED_LIFETIME_S - 61) * 1000);
    await t.manager.authorization();
    expect(t.requests()).toBe(1);
    t.advance(2_000);
    await t.manager.authorization();
    expect(t.requests()).toBe(2);
  });

  it.each([
    ['absent', {}],
    ['null', { scope: null }],
    ['empty', { scope: '  ' }],
  ])('scope %s: the scopes are unknown (null), not "none granted"', async (_case, extra) => {
    const t = managerAnswering({
      access_token: 'a',
      token_type: 'Bearer',
      expires_in: 60,
      ...extra,
    });
    expect((await t.manager.info()).grantedScopes).toBeNull();
    expect(t.manager.hasToken()).toBe(true);
    expect(t.manager.grantedScopes()).toBeNull();
  });

  it('reads a scope list and a numeric-string lifetime', async () => {
    const t = managerAnswering({
      access_token: 'a',
      token_type: 'Bearer',
      expires_in: '3600',
      scope: ['strategies:read', 'strategy_versions:read'],
    });
    const info = await t.manager.info();
    expect(info).toMatchObject({
      grantedScopes: ['strategies:read', 'strategy_versions:read'],
      lifetimeKnown: true,
    });
    expect(info.expiresAt - 1_000_000).toBe(3_600_000);
  });

  it('still refuses a token answer without an access token or a type', async () => {
    for (const body of [{ token_type: 'Bearer' }, { access_token: 'a' }]) {
      const t = managerAnswering(body);
      await expect(t.manager.info()).rejects.toMatchObject({ kind: 'bad-response' });
    }
  });
});
