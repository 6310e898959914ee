import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestBudget, type Lane } from '../../../../electron/core/api/budget';
import { isServiceError } from '../../../../electron/core/api';

/** Asks for a place and notes, in order, when each request is let go to the service. */
function asker(budget: RequestBudget) {
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const failures = new Map<string, unknown>();
  const ask = (name: string, lane: Lane, signal?: AbortSignal) =>
    budget.take(lane, signal).then(
      (release) => {
        started.push(name);
        releases.set(name, release);
      },
      (error: unknown) => failures.set(name, error),
    );
  const done = async (name: string) => {
    releases.get(name)!();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { started, failures, ask, done };
}

describe('a profile’s request budget', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('lets at most its limit go at once, the rest in the order they asked', async () => {
    const budget = new RequestBudget(2);
    const a = asker(budget);
    for (const name of ['r1', 'r2', 'r3', 'r4']) void a.ask(name, 'bulk');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.started).toEqual(['r1', 'r2']);
    expect(budget.inFlight).toBe(2);
    await a.done('r2');
    expect(a.started).toEqual(['r1', 'r2', 'r3']);
    await a.done('r1');
    expect(a.started).toEqual(['r1', 'r2', 'r3', 'r4']);
    // A place given back twice counts once.
    await a.done('r1');
    expect(budget.inFlight).toBe(2);
  });

  it("starts the manager's request at the next free place, before bulk ones that asked first", async () => {
    const budget = new RequestBudget(2);
    const a = asker(budget);
    for (let i = 1; i <= 100; i++) void a.ask(`read ${i}`, 'bulk');
    void a.ask('execute', 'manager');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.started).toEqual(['read 1', 'read 2']);
    await a.done('read 1');
    expect(a.started).toEqual(['read 1', 'read 2', 'execute']);
    await a.done('read 2');
    expect(a.started.at(-1)).toBe('read 3');
  });

  it('after a 429 starts nothing until the wait is over, whatever gives a place back', async () => {
    const budget = new RequestBudget(2);
    const a = asker(budget);
    void a.ask('r1', 'bulk');
    await vi.advanceTimersByTimeAsync(0);
    budget.pause(1_000);
    // A shorter wait asked meanwhile does not cut the longer one short.
    budget.pause(10);
    expect(budget.waitingUntil).not.toBeNull();
    void a.ask('r2', 'bulk');
    void a.ask('execute', 'manager');
    await a.done('r1');
    await vi.advanceTimersByTimeAsync(999);
    expect(a.started).toEqual(['r1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(a.started).toEqual(['r1', 'execute', 'r2']);
    expect(budget.waitingUntil).toBeNull();
  });

  it('a request whose signal aborts leaves the line unsent; closing sends none of those left', async () => {
    const budget = new RequestBudget(1);
    const a = asker(budget);
    const leaving = new AbortController();
    void a.ask('r1', 'bulk');
    void a.ask('r2', 'bulk', leaving.signal);
    void a.ask('r3', 'bulk');
    await vi.advanceTimersByTimeAsync(0);
    leaving.abort();
    await vi.advanceTimersByTimeAsync(0);
    const why = a.failures.get('r2');
    expect(isServiceError(why, 'cancelled')).toBe(true);
    expect(isServiceError(why) && why.details.requestSent).toBe(false);
    await a.done('r1');
    expect(a.started).toEqual(['r1', 'r3']);
    void a.ask('r4', 'manager');
    budget.close();
    await vi.advanceTimersByTimeAsync(0);
    expect(isServiceError(a.failures.get('r4'), 'cancelled')).toBe(true);
    await a.done('r3');
    expect(a.started).toEqual(['r1', 'r3']);
  });

  it('starts the line after a pause even when its timer fires before the clock reaches the end', async () => {
    const budget = new RequestBudget(2);
    const a = asker(budget);
    budget.pause(100);
    void a.ask('r1', 'bulk');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.started).toEqual([]);
    // Node's timers may fire a millisecond early against Date.now(): here the clock lags 5 ms.
    vi.setSystemTime(Date.now() - 5);
    await vi.advanceTimersByTimeAsync(100);
    expect(a.started).toEqual([]);
    await vi.advanceTimersByTimeAsync(5);
    expect(a.started).toEqual(['r1']);
  });

  it('lets half as many at once after a 429, one more after as many answers in a row', async () => {
    const budget = new RequestBudget(4);
    const paced: number[] = [];
    budget.onPaced(() => paced.push(budget.atOnce));
    const a = asker(budget);
    budget.refused();
    budget.refused();
    expect(budget.atOnce).toBe(1);
    for (const name of ['r1', 'r2', 'r3']) void a.ask(name, 'bulk');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.started).toEqual(['r1']);
    budget.answered();
    await a.done('r1');
    // One answer at one at once: two at once now.
    expect(budget.atOnce).toBe(2);
    expect(a.started).toEqual(['r1', 'r2', 'r3']);
    budget.answered();
    expect(budget.atOnce).toBe(2);
    budget.answered();
    expect(budget.atOnce).toBe(3);
    expect(paced).toEqual([2, 1, 2, 3]);
  });

  it('tells whoever waits for the pause when it is over, or when they stop waiting', async () => {
    const budget = new RequestBudget(2);
    let over = false;
    void budget.pauseOver().then(() => (over = true));
    await vi.advanceTimersByTimeAsync(0);
    // Not paused: at once.
    expect(over).toBe(true);
    budget.pause(500);
    over = false;
    void budget.pauseOver().then(() => (over = true));
    const leaving = new AbortController();
    let left = false;
    void budget.pauseOver(leaving.signal).then(() => (left = true));
    await vi.advanceTimersByTimeAsync(100);
    leaving.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect([over, left]).toEqual([false, true]);
    await vi.advanceTimersByTimeAsync(400);
    expect(over).toBe(true);
    expect(budget.waitingUntil).toBeNull();
  });
});
