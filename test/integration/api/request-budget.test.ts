import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BookJob } from '../../../shared/book/views';
import { MAX_REQUESTS_AT_ONCE } from '../../../electron/core/api/budget';
import { DEMO_CLIENTS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd } from '../../support/batches';
import { jobEnded, wholeBook } from '../../support/book';
import {
  delayed,
  isExecute,
  isToken,
  jsonAnswer,
  startFakeService,
  tooManyEvery,
  versionPathIds,
  type FakeService,
} from '../../support/fake-service';
import { manyStrategiesSandbox, profileWithCopies } from '../../support/many-strategies';

/** Strategies in the book (refreshed, then sent as a batch) and as many added meanwhile. */
const HELD = 24;
const ADDED = 24;
/** The policy's maximum and floor, lowered so a test's waits take a moment. */
const MAX_WAIT_MS = 300;
const FLOOR_MS = 40;

/**
 * One profile's request budget (api/budget.ts), through the desk against a service that counts
 * the requests of each client under way at once and answers some with 429: a refresh of the
 * whole book, an Add many and a batch's review and send running together never have more than
 * MAX_REQUESTS_AT_ONCE of the profile at the service, wait out every 429 and end true.
 */
describe("one profile's requests, whatever runs together", () => {
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  let fake: FakeService;
  let h: DeskHarness;
  let profileId: string;
  let held: string[];
  let added: string[];
  /** The revision the first test's batch sent (the second reviews it again). */
  let revisionId: string;

  beforeAll(async () => {
    sandbox = await manyStrategiesSandbox(HELD + ADDED, 0);
    held = sandbox.ids.slice(0, HELD);
    added = sandbox.ids.slice(HELD);
    fake = await startFakeService({ upstream: sandbox.baseUrl });
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { retry: { maxRetryAfterMs: MAX_WAIT_MS, rateFloorMs: FLOOR_MS } },
    });
    profileId = await profileWithCopies(h.desk, {
      ...sandbox,
      baseUrl: fake.baseUrl,
      ids: held,
    });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await sandbox?.close();
  });

  it('a refresh all, an Add many and a batch together: never more than the budget at once', async () => {
    const modelId = (
      await h.desk.models.create({
        name: 'Budget model',
        start: { kind: 'strategy', profileId, strategyId: held[0]! },
      })
    ).id;
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '17' } : r));
    revisionId = (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;

    const from = fake.requests.length;
    fake.resetPeaks();
    // Every 5th request of a strategy, a version or an execute refused once: the service asks
    // the whole client to wait, Retry-After: 0 (the policy's floor, doubled in a row).
    const rule = tooManyEvery(5, { retryAfter: '0', delayMs: 15, matches: (r) => !isToken(r) });
    fake.answer(rule);

    const refresh = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    const add = await h.desk.book.addMany({ profileId, text: added.join('\n') });
    const batchSent = h.desk.batches
      .review({ profileId, revisionId, strategyIds: held })
      .then((batch) => {
        expect(batch.items.map((i) => i.state)).toEqual(Array(HELD).fill('ready'));
        return executeToEnd(h, batch, { concurrency: 4 });
      });
    const [refreshed, addedJob, sent] = await Promise.all([
      jobEnded(h, refresh.id),
      jobEnded(h, add.id),
      batchSent,
    ]);
    fake.answer(null);

    // Never more than the budget at the service at once, and the budget used whole.
    expect(fake.peakInFlight(DEMO_CLIENTS.manager.client_id)).toBe(MAX_REQUESTS_AT_ONCE);
    // The service refused some, each asked again: everything ends well.
    expect(rule.refused.length).toBeGreaterThan(0);
    expect(refreshed).toMatchObject<Partial<BookJob>>({
      state: 'finished',
      total: HELD,
      done: HELD,
      failed: 0,
    });
    expect(addedJob).toMatchObject<Partial<BookJob>>({ state: 'finished', failed: 0 });
    expect(addedJob.outcomes?.added).toBe(ADDED);
    expect(sent.items.map((i) => i.state)).toEqual(Array(HELD).fill('accepted'));
    const book = await wholeBook(h, profileId);
    expect(book.map((r) => r.strategyId).sort()).toEqual([...held, ...added].sort());
    for (const row of book) expect(row.flags).not.toContain('refresh-failed');
    expect(h.desk.execution.inFlight(profileId)).toEqual([]);

    // No spin: each request other than a poll of a version asked a bounded number of times
    // (read by the refresh or the add, the review, the send, the end of its rebalance; again
    // after a 429).
    const asked = new Map<string, number>();
    for (const r of fake.requests.slice(from)) {
      if (isToken(r) || (r.method === 'GET' && versionPathIds(r.path) !== null)) continue;
      const key = `${r.method} ${r.path}`;
      asked.set(key, (asked.get(key) ?? 0) + 1);
    }
    expect(Math.max(...asked.values())).toBeLessThanOrEqual(8);
  });

  it("a draft's confirmation and execute go before a review's many reads waiting", async () => {
    const mine = held[0]!;
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: mine,
      name: 'Manager first',
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '16' } : r)),
    });
    const others = [...held, ...added].filter((id) => id !== mine);
    const from = fake.requests.length;
    fake.answer(delayed(40));

    // The review asks all its reads at once (bulk); the manager's requests come after them.
    const reviewed = h.desk.batches.review({ profileId, revisionId, strategyIds: others });
    // Once its first read has reached the service, the others wait in line.
    await vi.waitUntil(() => fake.requests.length > from, { interval: 1, timeout: 10_000 });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    const executed = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: {
        planKey: preview.planKey,
        acknowledgedStale: preview.check?.fits === false,
        againAfter: null,
      },
    });
    await reviewed;
    fake.answer(null);

    expect(executed.version.id).toBeTruthy();
    const seen = fake.requests.slice(from).filter((r) => !isToken(r));
    const isMine = (path: string) => path.includes(`/strategies/${mine}`);
    const reviewReads = seen.filter((r) => !isMine(r.path));
    const executeAt = seen.findIndex((r) => r.method === 'POST' && isMine(r.path));
    const reviewReadsBefore = seen.slice(0, executeAt).filter((r) => !isMine(r.path)).length;
    // Without the manager's lane the confirmation's two reads wait behind every read of the
    // review (one or two per strategy), and the execute arrives after nearly all of them.
    expect(reviewReads.length).toBeGreaterThanOrEqual(others.length);
    expect(reviewReadsBefore).toBeLessThan(reviewReads.length / 2);
  });
});

/**
 * The fold of every flow's 429 pacing into the budget: a refresh all and a batch running when
 * the service refuses one execute wait out one pause, the profile budget's, and show the same
 * instant (the book's job and the batch's summary read it from the budget), and nothing of the
 * profile reaches the service before it ends. Its wait is long beside the announcements' pace
 * (at most 150 ms), so what each shows is read while it lasts.
 */
describe('one pause for every flow of a profile', () => {
  const PAUSE_MS = 2_000;
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>>;
  let fake: FakeService;
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    sandbox = await manyStrategiesSandbox(HELD, 0);
    fake = await startFakeService({ upstream: sandbox.baseUrl });
    h = await openDeskHarness({
      stepMs: 0,
      clientOptions: { retry: { maxRetryAfterMs: PAUSE_MS + 1_000, rateFloorMs: FLOOR_MS } },
    });
    profileId = await profileWithCopies(h.desk, { ...sandbox, baseUrl: fake.baseUrl });
  });
  afterAll(async () => {
    await h?.close();
    await fake?.close();
    await sandbox?.close();
  });

  it('a refresh and a batch under a 429: one pause, decided by the budget, holds both', async () => {
    const model = await h.desk.models.create({
      name: 'One pause model',
      start: { kind: 'strategy', profileId, strategyId: sandbox.ids[0]! },
    });
    const rows = model.rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '13' } : r));
    const revision = (await h.desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;
    // A few strategies sent one at a time, while the refresh reads the whole book.
    const sending = sandbox.ids.slice(0, 4);
    const batch = await h.desk.batches.review({
      profileId,
      revisionId: revision,
      strategyIds: sending,
    });
    expect(batch.items.map((i) => i.state)).toEqual(Array(sending.length).fill('ready'));

    // The service's first execute is refused (Retry-After: 2 s); every request is answered late,
    // so the refresh is still reading meanwhile.
    const arrivals: { at: number; token: boolean }[] = [];
    let refusedAt = 0;
    const later = delayed(30);
    fake.answer((req, forward) => {
      arrivals.push({ at: Date.now(), token: isToken(req) });
      if (refusedAt !== 0 || !isExecute(req)) return later(req, forward);
      refusedAt = Date.now();
      return jsonAnswer(
        429,
        { errors: { detail: 'Too many requests' } },
        { 'retry-after': String(PAUSE_MS / 1000) },
      );
    });
    const from = h.events.length;
    const refresh = await h.desk.book.refresh({ profileId, selection: { kind: 'all' } });
    const [refreshed, sent] = await Promise.all([
      jobEnded(h, refresh.id),
      executeToEnd(h, batch, { concurrency: 1 }),
    ]);
    fake.answer(null);
    expect(refreshed).toMatchObject({ state: 'finished', failed: 0 });
    expect(sent.items.map((i) => i.state)).toEqual(Array(sending.length).fill('accepted'));
    expect(refusedAt, 'an execute refused').toBeGreaterThan(0);

    // What each flow showed of the wait: the same instant, the budget's.
    const events = h.events.slice(from);
    const batchPauses = events.flatMap((e) =>
      e.type === 'batch-progress' && e.batchId === batch.id && e.summary.pausedUntil !== null
        ? [Date.parse(e.summary.pausedUntil)]
        : [],
    );
    const refreshPauses = events.flatMap((e) =>
      e.type === 'book-job-changed' && e.job.id === refresh.id && e.job.waitingUntil !== null
        ? [Date.parse(e.job.waitingUntil)]
        : [],
    );
    expect(batchPauses.length, 'the batch showed the wait').toBeGreaterThan(0);
    expect(refreshPauses.length, 'the refresh showed the wait').toBeGreaterThan(0);
    const pausedUntil = Math.max(...batchPauses);
    expect(Math.max(...refreshPauses)).toBe(pausedUntil);
    expect(pausedUntil - refusedAt).toBeGreaterThanOrEqual(PAUSE_MS - 5);
    expect(pausedUntil - refusedAt).toBeLessThan(PAUSE_MS + 1_000);
    // And it held: no request of the profile reached the service from soon after the pause began
    // (those already on their way when the client read the 429 aside) until it ended.
    const pauseBegan = pausedUntil - PAUSE_MS;
    const during = arrivals.filter(
      (a) => !a.token && a.at > pauseBegan + 500 && a.at < pausedUntil - 5,
    );
    expect(during).toEqual([]);
  });
});
