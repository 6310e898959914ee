import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/core/api';
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
    expect(wrong.kind).toBe('invalid_client');
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
    expect(echoed.kind).toBe('bad_request');
    expect(JSON.stringify({ m: echoed.message, s: echoed.serviceMessage })).not.toContain(SECRET);
  });

  it('a secret that cannot be read is a no_secret error and no request is made', async () => {
    f = await startFake(() => {});
    const err = (await client({
      getSecret: async () => {
        throw new Error('keychain locked');
      },
    })
      .testConnection()
      .catch((e: unknown) => e)) as ServiceError;
    expect([err.kind, f.tokenRequests()]).toEqual(['no_secret', 0]);
    expect(err.message).toMatch(/keychain locked/);
  });

  it('testConnection returns the granted scopes', async () => {
    f = await startFake(() => {}, { scope: 'strategies:read' });
    expect(await client().testConnection()).toEqual(['strategies:read']);
  });
});
