import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeskEvent } from '../../../shared/contract';
import type { BatchView } from '../../../shared/batches/views';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd, itemOf, sendingTold } from '../../support/batches';
import { jobEnded } from '../../support/book';
import {
  isExecute,
  jsonAnswer,
  startFakeService,
  type FakeService,
  type SeenRequest,
} from '../../support/fake-service';
import { manyStrategiesSandbox, profileWithCopies } from '../../support/many-strategies';
import { copiesBehindFakeForSuite } from '../../support/copies-behind-fake';
import { executePath } from '../../support/sandbox-http';

const STRATEGIES = 4;
/** The policy's maximum and floor, lowered so the waits of a test take a moment. */
const MAX_WAIT_MS = 300;
const FLOOR_MS = 40;

const tooMany = (retryAfter: string) =>
  jsonAnswer(429, { errors: { detail: 'Too many requests' } }, { 'retry-after': retryAfter });
const executeOf = (req: SeenRequest, strategyId: string) =>
  isExecute(req) && req.path === executePath(strategyId);

/**
 * A service that answers 429 as it likes, in front of the sandbox (the loopback stand-in): every
 * wait it asks for is bounded by the one policy (api/retry.ts), on a batch's sends and on the
 * book's reads; a batch re-sends an item a bounded number of times, and never shows more items
 * sending than its concurrency.
 */
describe('a batch and the book under 429s', () => {
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  let fake: FakeService;
  let h: DeskHarness;
  let profileId: string;
  let modelId: string;
  let weight = 20;

  /** A new revision of the model (AAPL at a weight not used before): every strategy to send. */
  async function review(): Promise<BatchView> {
    weight -= 1;
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) =>
      r.symbol === 'AAPL' ? { ...r, weight: String(weight) } : r,
    );
    const revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: sandbox.ids });
    expect(batch.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('ready'));
    return batch;
  }

  beforeAll(async () => {
    sandbox = await manyStrategiesSandbox(STRATEGIES, 0);
    fake = await startFakeService({ upstream: sandbox.baseUrl });
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { retry: { maxRetryAfterMs: MAX_WAIT_MS, rateFloorMs: FLOOR_MS } },
    });
    profileId = await profileWithCopies(h.desk, { ...sandbox, baseUrl: fake.baseUrl });
    modelId = (
      await h.desk.models.create({
        name: 'Waits model',
        start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
      })
    ).id;
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await sandbox?.close();
  });

  it('an execute answered Retry-After: 99999999999999999999 waits the maximum, then sends', async () => {
    const batch = await review();
    const first = sandbox.ids[0]!;
    let refusedAt = 0;
    fake.answer((req, forward) => {
      if (!executeOf(req, first) || refusedAt !== 0) return forward();
      refusedAt = Date.now();
      return tooMany('99999999999999999999');
    });
    const paused = h.waitFor(
      (e: DeskEvent) =>
        e.type === 'batch-progress' && e.batchId === batch.id && e.summary.pausedUntil !== null,
    );
    const done = await executeToEnd(h, batch, { concurrency: 1 });
    fake.answer(null);
    const event = (await paused) as Extract<DeskEvent, { type: 'batch-progress' }>;
    // The wait shown is a date, at most the policy's maximum after the refusal (not 3e12 years).
    const pausedFor = Date.parse(event.summary.pausedUntil!) - refusedAt;
    expect(pausedFor).toBeGreaterThanOrEqual(MAX_WAIT_MS);
    expect(pausedFor).toBeLessThan(MAX_WAIT_MS + 10_000);
    expect(done.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('accepted'));
    expect(fake.requests.filter((r) => executeOf(r, first))).toHaveLength(2);
  });

  it('a strategy answered Retry-After: 0 every time: bounded attempts with a floor, then not sent', async () => {
    const batch = await review();
    const refused = sandbox.ids[1]!;
    const from = fake.requests.length;
    const arrivals: number[] = [];
    fake.answer((req, forward) => {
      if (!executeOf(req, refused)) return forward();
      arrivals.push(Date.now());
      return tooMany('0');
    });
    const done = await executeToEnd(h, batch, { concurrency: 2 });
    fake.answer(null);
    // The policy's attempts (4), each wait at least the floor, doubled each time.
    expect(arrivals).toHaveLength(4);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(FLOOR_MS * 2 ** i - 5));
    const item = itemOf(done, refused);
    expect(item.state).toBe('not-sent');
    expect(item.reason).toBe(
      'Not sent: the service kept answering 429 (too many requests), 4 times. Review it again.',
    );
    for (const id of sandbox.ids.filter((s) => s !== refused))
      expect(itemOf(done, id).state).toBe('accepted');
    // Each attempt's entry was refused by the service; none is left in flight.
    expect(h.desk.execution.inFlight(profileId)).toEqual([]);
    expect(fake.requests.slice(from).filter((r) => executeOf(r, refused))).toHaveLength(4);
  });

  it('never shows more items sending than the concurrency while 429s give turns back', async () => {
    const batch = await review();
    const refusedOnce = new Set<string>();
    const sendingSeen: number[] = [];
    const sendingNow = () =>
      h.desk.store.batches.items(batch.id).filter((i) => i.state === 'sending').length;
    fake.answer((req, forward) => {
      if (!isExecute(req)) return forward();
      // What the view reads as each execute arrives (the items are read from the desk's store).
      sendingSeen.push(sendingNow());
      if (refusedOnce.has(req.path)) return forward();
      refusedOnce.add(req.path);
      return tooMany('0');
    });
    const progress = h.events.length;
    const done = await executeToEnd(h, batch, { concurrency: 2 });
    fake.answer(null);
    expect(done.items.map((i) => i.state)).toEqual(Array(STRATEGIES).fill('accepted'));
    expect(sendingSeen).toHaveLength(2 * STRATEGIES);
    expect(Math.max(...sendingSeen)).toBeLessThanOrEqual(2);
    // And every progress the screens were told of.
    const told = sendingTold(h, batch.id, progress);
    expect(told.length).toBeGreaterThan(0);
    expect(Math.max(...told)).toBeLessThanOrEqual(2);
  });

  it('a refresh read answered Retry-After: 99999999999999999999 or 3600 waits the maximum, then reads', async () => {
    const [absurd, hour] = [sandbox.ids[2]!, sandbox.ids[3]!];
    const refused = new Set<string>();
    fake.answer((req, forward) => {
      const id = [absurd, hour].find(
        (s) => req.method === 'GET' && new RegExp(`/strategies/${s}(\\?|$)`).test(req.path),
      );
      if (!id || refused.has(id)) return forward();
      refused.add(id);
      return tooMany(id === absurd ? '99999999999999999999' : '3600');
    });
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    const ended = await jobEnded(h, job.id, 20_000);
    fake.answer(null);
    expect(refused.size).toBe(2);
    expect(ended).toMatchObject({
      state: 'finished',
      total: STRATEGIES,
      done: STRATEGIES,
      failed: 0,
    });
  });
});

/**
 * With the app's own policy (a wait of 30 s at most): a Retry-After of an hour holds a batch or a
 * refresh for the maximum at most, and Cancel ends the wait at once, long before it would end.
 */
describe('a long wait cancelled', () => {
  // Each on a desk of its own: the profile's budget holds a 429's pause for all its requests.
  describe('a batch', () => {
    const s = copiesBehindFakeForSuite(2);

    it('a batch waiting out Retry-After: 3600 is cancelled at once', async () => {
      const model = await s.h.desk.models.create({
        name: 'Cancel model',
        start: { kind: 'strategy', profileId: s.profileId, strategyId: s.sandbox.ids[0]! },
      });
      const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '18' } : r));
      const revisionId = (await s.h.desk.models.saveRevision({ modelId: model.id, rows })).latest!
        .id;
      const batch = await s.h.desk.batches.review({
        profileId: s.profileId,
        revisionId,
        strategyIds: s.sandbox.ids,
      });
      let refusedAt = 0;
      s.fake.answer((req, forward) => {
        if (!isExecute(req)) return forward();
        refusedAt ||= Date.now();
        return tooMany('3600');
      });
      const paused = s.h.waitFor(
        (e: DeskEvent) =>
          e.type === 'batch-progress' && e.batchId === batch.id && e.summary.pausedUntil !== null,
      );
      await s.h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
        concurrency: 1,
      });
      const event = (await paused) as Extract<DeskEvent, { type: 'batch-progress' }>;
      const until = Date.parse(event.summary.pausedUntil!);
      // The policy's maximum (30 s) after the refusal, not an hour.
      expect(until - refusedAt).toBeGreaterThanOrEqual(29_000);
      expect(until - refusedAt).toBeLessThan(40_000);
      await s.h.desk.batches.cancel({ batchId: batch.id });
      await s.h.desk.batchFlow.sending(batch.id);
      expect(Date.now()).toBeLessThan(until);
      s.fake.answer(null);
      const done = await s.h.desk.batches.get({ batchId: batch.id });
      expect(done.state).toBe('cancelled');
      expect(done.items.map((i) => i.state)).toEqual(['not-sent', 'not-sent']);
    });
  });

  describe('a refresh', () => {
    const s = copiesBehindFakeForSuite(2);

    it('a refresh read waiting out Retry-After: 3600 is cancelled at once', async () => {
      let refusedAt = 0;
      s.fake.answer((req, forward) => {
        if (req.method !== 'GET' || !req.path.includes(`/strategies/${s.sandbox.ids[1]!}`))
          return forward();
        refusedAt ||= Date.now();
        return tooMany('3600');
      });
      const job = await s.h.desk.book.refresh({
        profileId: s.profileId,
        selection: { kind: 'all' },
      });
      while (refusedAt === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await s.h.desk.book.cancelRefresh({ profileId: s.profileId });
      const ended = await jobEnded(s.h, job.id, 20_000);
      // Long before the policy's 30 s would have passed.
      expect(Date.now() - refusedAt).toBeLessThan(20_000);
      s.fake.answer(null);
      expect(ended.state).toBe('cancelled');
    });
  });
});
