import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceError } from '../../../../electron/core/api';
import {
  ProfileReadQueue,
  type ReadBatch,
  type ReadResult,
} from '../../../../electron/core/book/read-queue';

/**
 * A fake service: each read waits until the test answers it. `disk`, when given, is what storing
 * a group gives back (the wait for its fsync).
 */
function harness(concurrency = 4, disk?: () => Promise<void>) {
  const started: { id: string; answer: (value: string) => void; fail: (e: unknown) => void }[] = [];
  const stored: string[][] = [];
  /** Each 429 the queue asked the profile's connection about: its read's refusals in a row. */
  const refusalsAsked: number[] = [];
  const queue = new ProfileReadQueue<string>('p', {
    fetch: (_p, id, signal) =>
      new Promise<string>((answer, fail) => {
        started.push({ id, answer, fail });
        signal.addEventListener('abort', () =>
          fail(new ServiceError({ kind: 'cancelled', message: 'cancelled' })),
        );
      }),
    store: (_p, answers) => {
      stored.push(answers);
      return disk?.();
    },
    // The connection pauses the profile's budget and says whether to read again: twice here.
    pauseAfter429: (_p, _error, refusals) => {
      refusalsAsked.push(refusals);
      return refusals < 3;
    },
    concurrency: () => concurrency,
    notRead: () => undefined,
  });
  const settled = new Map<string, ReadResult>();
  let active = true;
  const batch: ReadBatch = {
    id: 'b',
    active: () => active,
    settle: (id, result) => void settled.set(id, result),
    inFlightChanged: () => undefined,
  };
  return {
    queue,
    batch,
    started,
    stored,
    settled,
    refusalsAsked,
    cancel: () => {
      active = false;
      queue.cancel(batch);
    },
  };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `s${i}`);
const rateLimited = (seconds: number) =>
  new ServiceError({
    kind: 'rate-limited',
    status: 429,
    message: 'slow down',
    details: { retryAfterSeconds: seconds },
  });

describe('the read queue of a profile', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reads at most `concurrency` at once, and stores the answers in hand together', async () => {
    const h = harness(4);
    h.queue.add(h.batch, ids(10));
    expect(h.started.map((s) => s.id)).toEqual(['s0', 's1', 's2', 's3']);
    h.started[0]!.answer('a0');
    h.started[1]!.answer('a1');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.started).toHaveLength(6);
    expect(h.stored).toEqual([]);
    await vi.advanceTimersByTimeAsync(300);
    expect(h.stored).toEqual([['a0', 'a1']]);
    expect(h.settled.get('s0')).toEqual({ ok: true });
  });

  it('a read refused for the rate goes first in line again, as often as the connection allows', async () => {
    const h = harness(4);
    h.queue.add(h.batch, ids(12));
    h.started[0]!.fail(rateLimited(2));
    await vi.advanceTimersByTimeAsync(0);
    // No pause of its own: the budget holds the read it hands again (its 4 at once kept).
    expect(h.refusalsAsked).toEqual([1]);
    expect(h.started.map((s) => s.id)).toEqual(['s0', 's1', 's2', 's3', 's0']);
    h.started[4]!.fail(rateLimited(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.started.at(-1)!.id).toBe('s0');
    h.started[5]!.fail(rateLimited(2));
    await vi.advanceTimersByTimeAsync(0);
    // The connection's policy spent: the read fails, the next strategy is read.
    expect(h.refusalsAsked).toEqual([1, 2, 3]);
    expect(h.settled.get('s0')).toMatchObject({ ok: false, cancelled: false });
    expect(h.started.at(-1)!.id).toBe('s4');
  });

  it('cancelled: answers in hand are stored, waiting reads never start, reads under way drop', async () => {
    const h = harness(2);
    h.queue.add(h.batch, ids(6));
    h.started[0]!.answer('a0');
    await vi.advanceTimersByTimeAsync(0);
    h.cancel();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.stored).toEqual([['a0']]);
    expect(h.settled.get('s0')).toEqual({ ok: true });
    for (const id of ['s1', 's2', 's3', 's4', 's5'])
      expect(h.settled.get(id)).toMatchObject({ ok: false, cancelled: true });
    expect(h.started.map((s) => s.id)).toEqual(['s0', 's1', 's2']);
  });

  it('settles a group that must reach the disk only once it has, the next reads going on', async () => {
    let onDisk!: () => void;
    const h = harness(2, () => new Promise<void>((resolve) => (onDisk = resolve)));
    h.queue.add(h.batch, ids(4));
    h.started[0]!.answer('a0');
    h.started[1]!.answer('a1');
    await vi.advanceTimersByTimeAsync(300);
    // Stored (committed), and the next two reads under way, but not settled before the disk.
    expect(h.stored).toEqual([['a0', 'a1']]);
    expect(h.started.map((s) => s.id)).toEqual(['s0', 's1', 's2', 's3']);
    expect(h.settled.size).toBe(0);
    expect(h.queue.idle).toBe(false);
    onDisk();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.settled.get('s0')).toEqual({ ok: true });
    expect(h.settled.get('s1')).toEqual({ ok: true });
  });

  it('settles a group as failed when the disk refuses it, and a cancel waits for it', async () => {
    let refuse!: (error: unknown) => void;
    const h = harness(1, () => new Promise<void>((_, reject) => (refuse = reject)));
    h.queue.add(h.batch, ids(3));
    h.started[0]!.answer('a0');
    await vi.advanceTimersByTimeAsync(300);
    expect(h.stored).toEqual([['a0']]);
    const cancelled = h.queue.cancel(h.batch);
    expect(cancelled).toBeInstanceOf(Promise);
    let told = false;
    void cancelled!.then(() => (told = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toBe(false);
    expect(h.settled.has('s0')).toBe(false);
    const error = new Error('EIO');
    refuse(error);
    await vi.advanceTimersByTimeAsync(0);
    expect(told).toBe(true);
    expect(h.settled.get('s0')).toEqual({ ok: false, error, cancelled: false });
    expect(h.queue.idle).toBe(true);
  });

  it('gathers an add’s groups twice as long as the one before, up to a second', async () => {
    const h = harness(1, () => Promise.resolve());
    h.queue.add(h.batch, ids(6));
    const storedAfter = storedAfterOf(h);
    await storedAfter(0, 250);
    await storedAfter(1, 500);
    await storedAfter(2, 1_000);
    await storedAfter(3, 1_000);
    // The last reads: stored at once when none is left under way.
    h.started[4]!.answer('a4');
    await vi.advanceTimersByTimeAsync(0);
    h.started[5]!.answer('a5');
    await vi.advanceTimersByTimeAsync(0);
    expect(h.stored.slice(4)).toEqual([['a4', 'a5']]);
    expect(h.queue.idle).toBe(true);

    // Idle, then reads again: the first group is stored soon again.
    h.queue.add(h.batch, ['t0', 't1']);
    await storedAfter(6, 250);
  });

  it('keeps a refresh’s groups (nothing to wait on the disk for) to 250 ms', async () => {
    const h = harness(1);
    h.queue.add(h.batch, ids(4));
    const storedAfter = storedAfterOf(h);
    await storedAfter(0, 250);
    await storedAfter(1, 250);
    await storedAfter(2, 250);
  });
});

/** Answers the read under way; its group is stored `window` ms later, not a moment before. */
function storedAfterOf(h: ReturnType<typeof harness>) {
  return async (index: number, window: number) => {
    h.started[index]!.answer(`a${index}`);
    const groups = h.stored.length;
    await vi.advanceTimersByTimeAsync(window - 1);
    expect(h.stored).toHaveLength(groups);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.stored).toHaveLength(groups + 1);
  };
}
