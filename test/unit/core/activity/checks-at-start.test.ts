import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityChecks } from '../../../../electron/core/activity';
import type { ActivityRepository } from '../../../../electron/core/store/repositories/activity';

/** An empty log: the test is about when the walk starts, not what it finds. */
const emptyLog = {
  lastSeq: () => 0,
  // eslint-disable-next-line require-yield
  *iterateChains() {
    return;
  },
} as unknown as ActivityRepository;
const log = { error: () => undefined };

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] }));
afterEach(() => vi.useRealTimers());

describe('the walk of the activity log at start', () => {
  it("waits for the first screen's calls, however long the page takes to load", async () => {
    const checks = new ActivityChecks(emptyLog, () => new Date().toISOString());
    let lastCall: number | null = null;
    checks.checkAfterStart(
      log,
      () => false,
      () => lastCall,
    );
    // The page's code is still loading: no call yet, long past the quiet moment.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(checks.lastResult()).toBeNull();
    // The first screen's calls, then a quiet moment: not the first one, while the page draws
    // what the last call answered (a walk of 100,000 entries would share the machine with it).
    lastCall = Date.now();
    await vi.advanceTimersByTimeAsync(200);
    lastCall = Date.now();
    await vi.advanceTimersByTimeAsync(700);
    expect(checks.lastResult()).toBeNull();
    await vi.advanceTimersByTimeAsync(400);
    expect(checks.lastResult()).toMatchObject({ ok: true, entries: 0 });
  });

  it('walks at the latest 5 seconds after start when no call comes', async () => {
    const checks = new ActivityChecks(emptyLog, () => new Date().toISOString());
    checks.checkAfterStart(
      log,
      () => false,
      () => null,
    );
    await vi.advanceTimersByTimeAsync(4_800);
    expect(checks.lastResult()).toBeNull();
    await vi.advanceTimersByTimeAsync(400);
    expect(checks.lastResult()).toMatchObject({ ok: true, entries: 0 });
  });
});
