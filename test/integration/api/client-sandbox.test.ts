import { describe, expect, it } from 'vitest';
import { ServiceError, type ServiceClientOptions, type WaitInfo } from '../../../electron/core/api';
import {
  CORE_EQUITY,
  DIVIDEND_GROWTH,
  FRESH_START,
  useClientSandbox,
} from '../../support/client-sandbox';
import { startSandbox } from '../../../electron/sandbox/index';
import { request } from 'undici';

const h = useClientSandbox();
const client = (extra: Partial<ServiceClientOptions> = {}) => h.client(extra);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fail = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => {
      expect(e).toBeInstanceOf(ServiceError);
      return e as ServiceError;
    },
  );
const freshBody = {
  data: {
    positions: [
      { symbol: 'AAPL', weight: '40' },
      { symbol: 'MSFT', weight: '30' },
    ],
  },
};

describe('tokens against the sandbox', () => {
  it('100 calls racing an expired token make exactly one token request', async () => {
    await h.admin('PUT', '/sandbox/faults', { token_lifetime_s: 1 });
    const c = client();
    await c.getStrategy(CORE_EQUITY);
    // The next token lives long, so only the race itself can cause token requests.
    await h.admin('PUT', '/sandbox/faults', { token_lifetime_s: 3600 });
    await sleep(1100);
    const before = (await h.counters()).token_requests;
    const all = await Promise.all(
      Array.from({ length: 100 }, () => c.getStrategy(CORE_EQUITY, { includePositions: true })),
    );
    expect(all.every((s) => s.id === CORE_EQUITY)).toBe(true);
    expect((await h.counters()).token_requests - before).toBe(1);
  });

  it('a token expiring mid-session is invisible to the caller', async () => {
    await h.admin('PUT', '/sandbox/faults', { token_lifetime_s: 1 });
    const c = client();
    for (let i = 0; i < 6; i++) {
      await c.getStrategy(CORE_EQUITY);
      await sleep(300);
    }
    expect((await h.counters()).token_requests).toBeGreaterThanOrEqual(2);
  });

  it('a 401 (the service restarted and forgot the token) costs one new token and one retry', async () => {
    const first = await startSandbox({ port: 0, stepMs: 0 });
    const c = client({ baseUrl: first.baseUrl });
    await c.getStrategy(CORE_EQUITY);
    await first.close();
    // The same address, a fresh service: the client's cached token is unknown there.
    const second = await startSandbox({ port: first.port, stepMs: 0 });
    try {
      const s = await c.getStrategy(CORE_EQUITY);
      expect(s.id).toBe(CORE_EQUITY);
      expect(c.tokenRequestCount).toBe(2);
      const counters = await request(`${second.baseUrl}/sandbox/counters`, {
        headers: { 'x-sandbox-admin': '1' },
      });
      const { data } = (await counters.body.json()) as { data: { api_requests: number } };
      expect(data.api_requests).toBe(2); // the 401, then the one retry
    } finally {
      await c.close();
      await second.close();
    }
  });

  it('wrong secret is invalid-client, without the secret in the message', async () => {
    const c = client({ getSecret: async () => 'not-the-secret' });
    const err = await fail(c.testConnection());
    expect(err.kind).toBe('invalid-client');
    expect(err.message).toBe('The service refused the client id or secret');
    expect(err.message + (err.serviceMessage ?? '')).not.toContain('not-the-secret');
  });

  it('testConnection returns the granted scopes; a viewer executing gets a 403 naming the scope', async () => {
    const viewer = client({ clientId: 'demo-viewer' });
    expect(await viewer.testConnection()).toEqual(['strategies:read', 'strategy_versions:read']);
    const err = await fail(viewer.executeVersion(FRESH_START, freshBody, 'viewer-key-1'));
    expect(err.kind).toBe('forbidden');
    expect(err.status).toBe(403);
    expect(err.details.missingScopes).toEqual([
      'strategy_versions:create',
      'strategy_versions:execute',
    ]);
    expect(err.message).toBe(
      'This client lacks the scopes strategy_versions:create, strategy_versions:execute',
    );
    expect(err.ambiguous).toBe(false);
  });
});

describe('reads against the sandbox', () => {
  it('honours a 429 Retry-After and cuts a long one to the maximum, saying so', async () => {
    await h.admin('PUT', '/sandbox/faults', { api_rate_limit: { limit: 2, window_s: 1 } });
    const waits: WaitInfo[] = [];
    const c = client({ onWait: (w) => waits.push(w) });
    await Promise.all([1, 2, 3].map(() => c.getStrategy(CORE_EQUITY)));
    expect(waits.some((w) => w.reason === 'rate-limited' && w.retryAfterSeconds === 1)).toBe(true);

    await h.admin('PUT', '/sandbox/faults', { api_rate_limit: { limit: 1, window_s: 120 } });
    // The policy's maximum lowered for the test: each wait is cut to it, the attempts bounded.
    const longWaits: WaitInfo[] = [];
    const patient = client({ onWait: (w) => longWaits.push(w), retry: { maxRetryAfterMs: 50 } });
    await patient.getStrategy(CORE_EQUITY);
    const err = await fail(patient.getStrategy(CORE_EQUITY));
    expect(err.kind).toBe('rate-limited');
    expect(err.details.retryAfterSeconds).toBe(30);
    expect(err.message).toMatch(
      /^The service asks to wait longer than the app waits \(Retry-After: 1\d\d\): it waits 30 s at most before trying again$/,
    );
    expect(longWaits.map((w) => [w.delayMs, w.capped])).toEqual([
      [50, true],
      [50, true],
      [50, true],
    ]);
  });

  it('retries a 5xx on GET', async () => {
    await h.admin('PUT', '/sandbox/faults', { fail_next: 2, fail_status: 502 });
    const c = client();
    await c.getToken();
    const before = (await h.counters()).api_requests;
    const s = await c.getStrategy(CORE_EQUITY, { includePositions: true });
    expect(s.positions?.length).toBeGreaterThan(0);
    expect((await h.counters()).api_requests - before).toBe(3);
  });

  it('malformed JSON and wrong types are bad-response', async () => {
    const c = client();
    await h.admin('PUT', '/sandbox/faults', { malformed_json_next: 1 });
    expect((await fail(c.getStrategy(CORE_EQUITY))).kind).toBe('bad-response');
    await h.admin('PUT', '/sandbox/faults', { wrong_types_next: 1 });
    const wrong = await fail(c.getStrategy(CORE_EQUITY, { includePositions: true }));
    expect(wrong.kind).toBe('bad-response');
    expect(wrong.message).toMatch(/^The service's answer could not be read: /);
    expect((await c.getStrategy(CORE_EQUITY)).id).toBe(CORE_EQUITY);
  });
});

describe('execute and delete against the sandbox', () => {
  it('a 202 returns the version and a Location the client can follow', async () => {
    const c = client();
    const { version, location } = await c.executeVersion(FRESH_START, freshBody, 'exec-1');
    expect(version.status).toBe('PENDING');
    expect(version.positions?.map((p) => [p.symbol, p.action])).toEqual(
      expect.arrayContaining([
        ['AAPL', 'ADD'],
        ['MSFT', 'ADD'],
      ]),
    );
    expect(location).toContain(version.id);
    const again = await c.getVersionAt(location);
    expect(again.id).toBe(version.id);
    expect(again.orders).toBeDefined();
    await expect(c.getVersionAt('http://example.com' + location)).rejects.toThrow(/another server/);
  });

  it('a connection dropped after commit is ambiguous; the same key then replays the 202', async () => {
    await h.admin('PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
    const c = client();
    const err = await fail(c.executeVersion(FRESH_START, freshBody, 'exec-drop'));
    expect(err.ambiguous).toBe(true);
    expect(err.kind).toBe('network');
    expect((await h.counters()).executions_accepted[FRESH_START]).toBe(1);
    const replay = await c.executeVersion(FRESH_START, freshBody, 'exec-drop');
    expect(replay.version.strategy_id).toBe(FRESH_START);
    expect((await h.counters()).executions_accepted[FRESH_START]).toBe(1);
  });

  it('unknown symbols are listed', async () => {
    const c = client();
    const body = {
      data: {
        positions: [
          { symbol: 'FOO', weight: '1' },
          { symbol: 'BAR', weight: '1' },
        ],
      },
    };
    const err = await fail(c.executeVersion(FRESH_START, body, 'exec-unknown'));
    expect(err.kind).toBe('unknown-symbols');
    expect(err.details.unknownSymbols).toEqual(['FOO', 'BAR']);
    expect(err.message).toBe('The service does not know these symbols: FOO, BAR');
  });

  it('an unexecuted version blocks execution and carries its id; deleting it unblocks', async () => {
    const c = client();
    const body = { data: { positions: [{ symbol: 'AAPL', weight: '10' }] } };
    const err = await fail(c.executeVersion(DIVIDEND_GROWTH, body, 'exec-dg'));
    expect(err.kind).toBe('unexecuted-version');
    const versionId = err.details.versionId!;
    expect(err.message).toBe(`An unexecuted version (id ${versionId}) must be deleted first`);
    const scheduled = await c.getVersion(DIVIDEND_GROWTH, versionId, { positions: true });
    expect(scheduled.status).toBe('SCHEDULED');
    await c.deleteVersion(DIVIDEND_GROWTH, versionId);
    expect((await fail(c.getVersion(DIVIDEND_GROWTH, versionId))).kind).toBe('not-found');
  });

  it('deleting an executed version is refused in words', async () => {
    const c = client();
    const { version } = await c.executeVersion(FRESH_START, freshBody, 'exec-del');
    const err = await fail(c.deleteVersion(FRESH_START, version.id));
    expect(err.kind).toBe('version-executed');
  });

  it('a running rebalance blocks the next execution (conflict)', async () => {
    await h.admin('PUT', '/sandbox/timing', { step_ms: 5000 });
    const c = client();
    await c.executeVersion(FRESH_START, freshBody, 'exec-run-1');
    const err = await fail(
      c.executeVersion(
        FRESH_START,
        {
          data: {
            positions: [
              { symbol: 'AAPL', weight: '20' },
              { symbol: 'MSFT', weight: '0' },
            ],
          },
        },
        'exec-run-2',
      ),
    );
    expect(err.kind).toBe('conflict');
    expect(err.details.versionId).toBeDefined();
    await h.admin('PUT', '/sandbox/timing', { step_ms: 0 });
  });
});
