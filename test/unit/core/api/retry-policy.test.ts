import { afterEach, describe, expect, it } from 'vitest';
import {
  ServiceError,
  backoffDelay,
  parseRetryAfter,
  planRetry,
  rateLimitedWait,
  DEFAULT_RETRY,
  MAX_RETRY_AFTER_MS,
} from '../../../../electron/core/api';
import type { WaitInfo } from '../../../../electron/core/api';
import {
  STRATEGY_ID,
  VERSION_ID,
  clientFor,
  startFake,
  strategyBody,
  versionBody,
} from './fake-service';
import type { FakeService } from './fake-service';

const fakes: FakeService[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

async function fake(setup: Parameters<typeof startFake>[0]) {
  const f = await startFake(setup);
  fakes.push(f);
  return f;
}
function client(f: { baseUrl: string }, extra: Parameters<typeof clientFor>[1] = {}) {
  const c = clientFor(f, extra);
  closers.push(() => c.close());
  return c;
}
const body = { data: { positions: [{ symbol: 'AAPL', weight: '90' }] } };

describe('Retry-After and backoff', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toEqual({ ms: 3000 });
    expect(parseRetryAfter(' 0 ', now)).toEqual({ ms: 0 });
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', now)).toEqual({ ms: 7000 });
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toEqual({ ms: 0 });
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
    expect(parseRetryAfter('<script>', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('cuts any wait longer than the stated maximum to it, and keeps what was asked to say so', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const absurd = [
      '99999999999999999999',
      '9'.repeat(400),
      '3600',
      'Fri, 31 Dec 9999 23:59:59 GMT',
    ];
    for (const value of absurd) {
      const read = parseRetryAfter(value, now)!;
      expect(read.ms).toBe(MAX_RETRY_AFTER_MS);
      expect(read.asked).toBe(value.length > 40 ? `${value.slice(0, 39)}…` : value);
      // A date JavaScript can hold: the pause it becomes is always shown.
      expect(new Date(now + read.ms).toISOString()).toBe('2025-01-01T00:00:30.000Z');
    }
    expect(parseRetryAfter(String(MAX_RETRY_AFTER_MS / 1000), now)).toEqual({
      ms: MAX_RETRY_AFTER_MS,
    });
  });

  it('waits after a 429 as asked, never under a floor that doubles, never over the maximum', () => {
    const p = { ...DEFAULT_RETRY, rateFloorMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 2000 };
    // Retry-After: 0 (or none) does not spin.
    expect([1, 2, 3].map((n) => rateLimitedWait(0, n, p)?.delayMs)).toEqual([100, 200, 400]);
    expect(rateLimitedWait(undefined, 1, p)).toEqual({ delayMs: 100, capped: false });
    expect(rateLimitedWait(1, 1, p)).toEqual({ delayMs: 1000, capped: false });
    expect(rateLimitedWait(30, 1, p)).toEqual({ delayMs: 2000, capped: true });
    // Attempts are bounded: after `attempts` refusals in a row, no more waits.
    expect(rateLimitedWait(0, p.attempts, p)).toBeUndefined();
  });

  it('keeps full-jitter backoff within the exponential bound and the maximum', () => {
    const p = { ...DEFAULT_RETRY, baseMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, p, () => 0)).toBe(0);
    expect(backoffDelay(1, p, () => 0.999)).toBe(99);
    expect(backoffDelay(3, p, () => 0.999)).toBe(399);
    expect(backoffDelay(10, p, () => 0.999)).toBe(999);
    for (let i = 0; i < 200; i++) {
      const d = backoffDelay(2, p);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(200);
    }
  });
});

describe('planRetry: which failure is retried, per operation kind', () => {
  const err = (kind: ServiceError['kind'], extra: Partial<ServiceError['details']> = {}) =>
    new ServiceError({ kind, message: kind, details: extra });
  const cases: [ServiceError, 'read' | 'delete' | 'never', boolean][] = [
    [err('network', { requestSent: true }), 'read', true],
    [err('timeout', { requestSent: true }), 'read', true],
    [err('server'), 'read', true],
    [err('rate-limited'), 'read', true],
    [err('not-found'), 'read', false],
    [err('bad-response'), 'read', false],
    [err('network', { requestSent: false }), 'delete', true],
    [err('network', { requestSent: true }), 'delete', true],
    [err('timeout', { requestSent: false }), 'delete', true],
    [err('timeout', { requestSent: true }), 'delete', false],
    [err('server'), 'delete', false],
    [err('rate-limited'), 'delete', false],
    [err('network', { requestSent: false }), 'never', false],
    [err('server'), 'never', false],
    [err('timeout', { requestSent: true }), 'never', false],
  ];
  it.each(cases)('%o in mode %s: retried %s', (e, mode, retried) => {
    expect(planRetry(e, 1, mode, DEFAULT_RETRY) !== undefined).toBe(retried);
  });

  it('stops after the bounded attempts and cuts a long Retry-After to the maximum', () => {
    expect(planRetry(err('server'), DEFAULT_RETRY.attempts, 'read', DEFAULT_RETRY)).toBeUndefined();
    expect(
      planRetry(err('rate-limited', { retryAfterSeconds: 2 }), 1, 'read', DEFAULT_RETRY),
    ).toEqual({ reason: 'rate-limited', status: undefined, retryAfterSeconds: 2, delayMs: 2000 });
    expect(
      planRetry(err('rate-limited', { retryAfterSeconds: 120 }), 1, 'read', DEFAULT_RETRY),
    ).toMatchObject({ capped: true, delayMs: MAX_RETRY_AFTER_MS });
  });
});

describe('reads', () => {
  it('retries 5xx with backoff and succeeds, reporting each wait', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) =>
        ++calls < 3 ? reply.code(503).send('busy') : strategyBody,
      ),
    );
    const waits: WaitInfo[] = [];
    const c = client(f, { onWait: (w) => waits.push(w), random: () => 0.5 });
    const s = await c.getStrategy(STRATEGY_ID, { includePositions: true });
    expect(s.positions?.[0]?.quantity).toBe('10.5');
    expect(calls).toBe(3);
    expect(waits.map((w) => [w.reason, w.status, w.attempt])).toEqual([
      ['server', 503, 1],
      ['server', 503, 2],
    ]);
    expect(waits[1]!.delayMs).toBeLessThanOrEqual(10);
  });

  it('gives up after the bounded number of attempts', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) => {
        calls++;
        return reply.code(500).send({ errors: { detail: 'database down' } });
      }),
    );
    const err = await client(f, { retry: { attempts: 3, baseMs: 1, maxDelayMs: 2 } })
      .getStrategy(STRATEGY_ID)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect((err as ServiceError).kind).toBe('server');
    expect((err as ServiceError).serviceMessage).toBe('database down');
    expect(calls).toBe(3);
  });

  it('honours Retry-After in seconds on 429', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) =>
        ++calls === 1
          ? reply
              .code(429)
              .header('retry-after', '1')
              .send({ errors: { detail: 'slow down' } })
          : strategyBody,
      ),
    );
    const waits: WaitInfo[] = [];
    const started = Date.now();
    await client(f, { onWait: (w) => waits.push(w) }).getStrategy(STRATEGY_ID);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(waits).toMatchObject([{ reason: 'rate-limited', retryAfterSeconds: 1, delayMs: 1000 }]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    let calls = 0;
    let until = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) => {
        if (++calls > 1) return strategyBody;
        until = Math.ceil((Date.now() + 600) / 1000) * 1000;
        return reply.code(503).header('retry-after', new Date(until).toUTCString()).send('');
      }),
    );
    await client(f).getStrategy(STRATEGY_ID);
    expect(calls).toBe(2);
    expect(Date.now()).toBeGreaterThanOrEqual(until - 50);
  });

  it('cuts a Retry-After longer than the policy to its maximum, says so, and stops in time', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async (_req, reply) => {
        calls++;
        return reply.code(429).header('retry-after', '120').send({ error: 'rate_limited' });
      }),
    );
    const waits: WaitInfo[] = [];
    const err = (await client(f, {
      onWait: (w) => waits.push(w),
      retry: { maxRetryAfterMs: 50 },
    })
      .getStrategy(STRATEGY_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect(err.kind).toBe('rate-limited');
    expect(err.message).toBe(
      'The service asks to wait longer than the app waits (Retry-After: 120): it waits 30 s at most before trying again',
    );
    expect(err.details.retryAfterSeconds).toBe(30);
    expect(calls).toBe(DEFAULT_RETRY.attempts);
    expect(waits).toHaveLength(DEFAULT_RETRY.attempts - 1);
    expect(waits).toMatchObject(
      Array(DEFAULT_RETRY.attempts - 1).fill({ capped: true, retryAfterSeconds: 30, delayMs: 50 }),
    );
  });

  it('retries a request timeout on GET', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.get('/api/v1/strategies/:id', async () => {
        if (++calls === 1) await new Promise((r) => setTimeout(r, 600));
        return strategyBody;
      }),
    );
    const s = await client(f, { timeouts: { requestMs: 250 } }).getStrategy(STRATEGY_ID);
    expect(s.name).toBe('Core Equity');
    expect(calls).toBe(2);
  });

  it('retries a refused connection, then says the service could not be reached', async () => {
    const f = await fake(() => {});
    const baseUrl = f.baseUrl;
    await f.close();
    fakes.splice(0);
    const waits: WaitInfo[] = [];
    const err = (await client({ baseUrl }, { onWait: (w) => waits.push(w) })
      .getStrategy(STRATEGY_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect(err.kind).toBe('network');
    expect(err.details.requestSent).toBe(false);
    expect(waits.length).toBe(DEFAULT_RETRY.attempts - 1);
  });
});

describe('execute is never retried', () => {
  it('a 5xx is one request and an ambiguous error', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.post('/api/v1/strategies/:id/versions/execute', async (_req, reply) => {
        calls++;
        return reply.code(502).type('text/html').send('<html><body>Bad gateway</body></html>');
      }),
    );
    const err = (await client(f)
      .executeVersion(STRATEGY_ID, body, 'key-1')
      .catch((e: unknown) => e)) as ServiceError;
    expect(calls).toBe(1);
    expect(err.kind).toBe('server');
    expect(err.ambiguous).toBe(true);
    // The page's words, never its markup.
    expect(err.serviceMessage).toBe('Bad gateway');
  });

  it('a connection reset with no answer is ambiguous and not retried', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.post('/api/v1/strategies/:id/versions/execute', async (req) => {
        calls++;
        req.raw.socket.destroy();
        return new Promise(() => {});
      }),
    );
    const err = (await client(f)
      .executeVersion(STRATEGY_ID, body, 'key-1')
      .catch((e: unknown) => e)) as ServiceError;
    expect(calls).toBe(1);
    expect(err.kind).toBe('network');
    expect(err.ambiguous).toBe(true);
    expect(err.message).toMatch(/may or may not have been executed/);
  });

  it('a timeout after sending is ambiguous; a refused connection is not', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.post('/api/v1/strategies/:id/versions/execute', async () => {
        calls++;
        await new Promise((r) => setTimeout(r, 600));
        return versionBody;
      }),
    );
    const err = (await client(f, { timeouts: { requestMs: 200 } })
      .executeVersion(STRATEGY_ID, body, 'key-1')
      .catch((e: unknown) => e)) as ServiceError;
    expect(calls).toBe(1);
    expect([err.kind, err.ambiguous]).toEqual(['timeout', true]);

    const baseUrl = f.baseUrl;
    await f.close();
    fakes.splice(0);
    const refused = (await client({ baseUrl })
      .executeVersion(STRATEGY_ID, body, 'key-1')
      .catch((e: unknown) => e)) as ServiceError;
    expect([refused.kind, refused.ambiguous]).toEqual(['network', false]);
  });

  it('a 429 on execute is reported, not retried and not ambiguous', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.post('/api/v1/strategies/:id/versions/execute', async (_req, reply) => {
        calls++;
        return reply
          .code(429)
          .header('retry-after', '1')
          .send({ errors: { detail: 'limit' } });
      }),
    );
    const err = (await client(f)
      .executeVersion(STRATEGY_ID, body, 'key-1')
      .catch((e: unknown) => e)) as ServiceError;
    expect([calls, err.kind, err.ambiguous]).toEqual([1, 'rate-limited', false]);
  });
});

describe('DELETE retries only when no answer came', () => {
  const path = `/api/v1/strategies/:sid/versions/:vid`;

  it('does not retry a 5xx; the version read afterwards is still there, so the error stands', async () => {
    let calls = 0;
    let reads = 0;
    const f = await fake((app) => {
      app.delete(path, async (_req, reply) => {
        calls++;
        return reply.code(503).send('');
      });
      app.get(path, async () => {
        reads++;
        return versionBody;
      });
    });
    const err = (await client(f)
      .deleteVersion(STRATEGY_ID, VERSION_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect([calls, reads, err.kind]).toEqual([1, 1, 'server']);
  });

  it('takes a 5xx followed by a 404 on reading the version as deleted', async () => {
    let calls = 0;
    let reads = 0;
    const f = await fake((app) => {
      app.delete(path, async (_req, reply) => {
        calls++;
        return reply.code(500).send('');
      });
      app.get(path, async (_req, reply) => {
        reads++;
        return reply.code(404).send({ errors: { detail: 'Not found' } });
      });
    });
    await client(f).deleteVersion(STRATEGY_ID, VERSION_ID);
    expect([calls, reads]).toEqual([1, 1]);
  });

  it('keeps the 5xx when the version cannot be read either', async () => {
    const f = await fake((app) => {
      app.delete(path, async (_req, reply) => reply.code(500).send(''));
      app.get(path, async (_req, reply) => reply.code(403).send({ errors: { detail: 'no' } }));
    });
    const err = (await client(f)
      .deleteVersion(STRATEGY_ID, VERSION_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect([err.kind, err.status]).toEqual(['server', 500]);
  });

  it('retries a connection reset before any answer', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.delete(path, async (req, reply) => {
        if (++calls === 1) {
          req.raw.socket.destroy();
          return new Promise(() => {});
        }
        return reply.code(204).send();
      }),
    );
    await client(f).deleteVersion(STRATEGY_ID, VERSION_ID);
    expect(calls).toBe(2);
  });

  it('takes a 404 after a lost answer as already deleted', async () => {
    let calls = 0;
    const f = await fake((app) =>
      app.delete(path, async (req, reply) => {
        if (++calls === 1) {
          req.raw.socket.destroy();
          return new Promise(() => {});
        }
        return reply.code(404).send({ errors: { detail: 'Not found' } });
      }),
    );
    await client(f).deleteVersion(STRATEGY_ID, VERSION_ID);
    expect(calls).toBe(2);
  });

  it('does not retry a timeout after sending; reads the version to learn the outcome', async () => {
    let calls = 0;
    let reads = 0;
    const f = await fake((app) => {
      app.delete(path, async (_req, reply) => {
        calls++;
        await new Promise((r) => setTimeout(r, 500));
        return reply.code(204).send();
      });
      app.get(path, async () => {
        reads++;
        return versionBody;
      });
    });
    const err = (await client(f, { timeouts: { requestMs: 150 } })
      .deleteVersion(STRATEGY_ID, VERSION_ID)
      .catch((e: unknown) => e)) as ServiceError;
    expect([calls, reads, err.kind]).toEqual([1, 1, 'timeout']);
  });
});
