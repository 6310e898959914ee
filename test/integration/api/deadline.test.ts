import { describe, expect, it } from 'vitest';
import { ServiceError } from '../../../electron/core/api';
import { FRESH_START, useClientSandbox } from '../../support/client-sandbox';

const h = useClientSandbox();

/** A client whose whole-request deadline is short, with one attempt per read. */
function client(requestMs: number) {
  return h.client({ timeouts: { requestMs }, retry: { attempts: 1 } });
}
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
const body = { data: { positions: [{ symbol: 'AAPL', weight: '40' }] } };

describe('one deadline for the whole request, body included', () => {
  it('a body dripping a byte at a time ends at the deadline, not when the last byte comes', async () => {
    const c = client(400);
    await c.getToken();
    // About a kilobyte at one byte per 40 ms: about 40 s to arrive in full, each byte well
    // within a per-read idle timeout.
    await h.admin('PUT', '/sandbox/faults', { drip: { bytes: 1, interval_ms: 40 } });
    const started = performance.now();
    const error = await failure(c.getStrategy(FRESH_START));
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'timeout', details: { requestSent: true } });
    // Bounded by the deadline (generous for a loaded machine), nowhere near the drip's 40 s.
    expect(elapsed).toBeLessThan(400 * 10);
  });

  it('headers that never come end at the same deadline', async () => {
    const c = client(300);
    await c.getToken();
    await h.admin('PUT', '/sandbox/faults', { latency_ms: 20_000 });
    const started = performance.now();
    const error = await failure(c.getStrategy(FRESH_START));
    expect(error).toMatchObject({ kind: 'timeout', details: { requestSent: true } });
    expect(performance.now() - started).toBeLessThan(300 * 10);
  });

  it('a complete answer that drips in before the deadline is read and used', async () => {
    const c = client(5_000);
    await c.getToken();
    await h.admin('PUT', '/sandbox/faults', { drip: { bytes: 200, interval_ms: 10 } });
    const strategy = await c.getStrategy(FRESH_START, { includePositions: true });
    expect(strategy.id).toBe(FRESH_START);
  });

  it('an execute whose full 202 arrives slowly but in time is accepted, not unknown', async () => {
    const c = client(5_000);
    await c.getToken();
    await h.admin('PUT', '/sandbox/faults', { drip: { bytes: 100, interval_ms: 10 } });
    const { version } = await c.executeVersion(FRESH_START, body, 'drip-in-time');
    expect(version.strategy_id).toBe(FRESH_START);
    expect((await h.counters()).executions_accepted[FRESH_START]).toBe(1);
  });

  it('an execute cut off by the deadline mid-body is ambiguous, and the same key settles it once', async () => {
    const c = client(300);
    await c.getToken();
    await h.admin('PUT', '/sandbox/faults', { drip: { bytes: 1, interval_ms: 40 } });
    const error = await failure(c.executeVersion(FRESH_START, body, 'drip-cut-off'));
    expect(error).toMatchObject({ kind: 'timeout', ambiguous: true });
    await h.admin('DELETE', '/sandbox/faults');
    const replay = await c.executeVersion(FRESH_START, body, 'drip-cut-off');
    expect(replay.version.strategy_id).toBe(FRESH_START);
    expect((await h.counters()).executions_accepted[FRESH_START]).toBe(1);
  });
});

describe('a read the caller cancels', () => {
  it('ends while it waits before a retry, with kind cancelled, and sends nothing more', async () => {
    const controller = new AbortController();
    const c = h.client({
      retry: { attempts: 4, baseMs: 20_000, maxDelayMs: 20_000 },
      random: () => 1,
      // Cancelled as soon as the client starts waiting 20 s before its second attempt.
      onWait: () => controller.abort(),
    });
    await c.getToken();
    await h.admin('PUT', '/sandbox/faults', { fail_next: 1, fail_status: 503 });
    const requestsBefore = (await h.counters()).api_requests;
    const started = performance.now();
    const error = await failure(c.getStrategy(FRESH_START, { signal: controller.signal }));
    expect(error).toMatchObject({ kind: 'cancelled', operation: 'getStrategy' });
    // Not after the 20 s wait.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await h.counters()).api_requests - requestsBefore).toBe(1);
  });

  it('a signal already aborted sends nothing', async () => {
    const c = client(5_000);
    await c.getToken();
    const requestsBefore = (await h.counters()).api_requests;
    const error = await failure(c.getStrategy(FRESH_START, { signal: AbortSignal.abort() }));
    expect(error).toMatchObject({ kind: 'cancelled' });
    expect((await h.counters()).api_requests).toBe(requestsBefore);
  });
});
