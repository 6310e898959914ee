import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import type { DeskEvent } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import {
  acceptedAtService,
  acknowledgementsOf,
  batchEnded,
  executeToEnd,
  gained,
  itemOf,
} from '../../support/batches';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const FRESH = DEMO_STRATEGY_IDS.freshStart;

/**
 * Sending a batch, rule by rule, through the real desk, sandbox and SQLite: acknowledgements by
 * name, unticking, stop at the first failure, a strategy changed since its review, a 429's wait,
 * cancel, and never a strategy executed twice (one batch from two windows, two batches at once).
 */
describe('sending a batch', () => {
  let h: DeskHarness;
  let profileId: string;
  let modelId: string;
  let baseUrl: string;
  let weight = 30;

  /** A new revision: Core Equity's target with SPY at a weight not used before. */
  async function newRevision(): Promise<string> {
    weight -= 1;
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows.map((r) => (r.symbol === 'SPY' ? { ...r, weight: String(weight) } : r));
    return (await h.desk.models.saveRevision({ modelId, rows })).latest!.id;
  }

  const review = async (strategyIds: string[]) =>
    h.desk.batches.review({ profileId, revisionId: await newRevision(), strategyIds });

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    baseUrl = h.sandbox()!.baseUrl;
    modelId = (
      await h.desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId, strategyId: CORE },
      })
    ).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('stops at the first failure when asked: the rest is not sent, to review again', async () => {
    const batch = await review([CORE, DIVIDEND, FRESH]);
    const before = await acceptedAtService(baseUrl);
    const done = await executeToEnd(h, batch, { stopAtFirstFailure: true, concurrency: 1 });
    expect(done.items.map((i) => i.state)).toEqual(['accepted', 'refused', 'not-sent']);
    expect(itemOf(done, FRESH).reason).toMatch(/stopped at the first failure \(Dividend Growth\)/);
    expect(done.state).toBe('halted');
    expect(done.words).toBe(
      'stopped at the first failure after 2 of 3 (1 refused, 1 COMPLETE): review the rest again',
    );
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
    // Fresh Start was journaled while Dividend Growth was at the service: withdrawn, never
    // marked sent, and it holds nothing of its strategy.
    const withdrawn = h.desk.store.journal.get(itemOf(done, FRESH).journalId!)!;
    expect(withdrawn).toMatchObject({ strategyId: FRESH, state: 'rejected', attempts: 0 });
    expect(withdrawn.error).toMatch(/stopped at the first failure/);
    expect(h.desk.store.activity.executionSentSeq(withdrawn.id)).toBeNull();
    expect(h.desk.execution.inFlight(profileId).filter((e) => e.strategyId === FRESH)).toEqual([]);
  });

  it('takes every uncertain strategy acknowledged by name; an unticked one is not sent', async () => {
    // Fresh Start is executed outside this app: it holds positions of a target unknown here.
    const token = await tokenFor(baseUrl, 'manager');
    const answer = await call(baseUrl, 'POST', executePath(FRESH), {
      token,
      body: target(['SPY', '40'], ['AAPL', '30']),
    });
    expect(answer.status).toBe(202);
    await waitForEnd(baseUrl, token, answer.headers.location as string);
    const batch = await review([CORE, FRESH]);
    const uncertain = batch.acknowledgementNeeded.map((a) => a.strategyName);
    expect(uncertain).toEqual(['Fresh Start']);
    const refused = await h.desk.batches
      .execute({ batchId: batch.id, unticked: [], acknowledged: [], stopAtFirstFailure: false })
      .catch((e: unknown) => e as DeskError);
    expect(refused).toBeInstanceOf(DeskError);
    expect((refused as DeskError).kind).toBe('stale-not-acknowledged');
    expect((refused as DeskError).message).toMatch(/Fresh Start/);
    expect((await h.desk.batches.get({ batchId: batch.id })).state).toBe('reviewed');

    const before = await acceptedAtService(baseUrl);
    const done = await executeToEnd(h, batch, { unticked: [FRESH] });
    expect(itemOf(done, FRESH)).toMatchObject({ state: 'unticked' });
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
    const row = h.desk.store.activity.get(h.desk.store.batches.get(batch.id)!.reviewSeq!)!;
    expect(JSON.parse(row.payload)).toMatchObject({
      included: [{ strategyName: 'Core Equity' }],
      excluded: [{ strategyName: 'Fresh Start', kind: 'unticked' }],
      acknowledged: [],
    });
  });

  it('skips a strategy changed since its review: checked at send time, not sent', async () => {
    const batch = await review([CORE]);
    // Meanwhile Core Equity is executed from elsewhere (another window's draft).
    const other = await h.desk.execution.execute({
      profileId,
      strategyId: CORE,
      rows: [{ symbol: 'SPY', weight: '50' }],
      origin: { kind: 'batch', batchId: '00000000-0000-4000-8000-000000000001' },
    });
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === other.version.id && e.ended,
    );
    const before = await acceptedAtService(baseUrl);
    const done = await executeToEnd(h, batch);
    expect(itemOf(done, CORE)).toMatchObject({
      state: 'skipped',
      exclusion: 'changed-since-review',
    });
    expect(itemOf(done, CORE).reason).toMatch(/Changed since the review/);
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({});
  });

  it('pauses for a 429 and shows the wait, then sends it once', async () => {
    const batch = await review([CORE]);
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', {
      fail_next: 1,
      fail_next_method: 'POST',
      fail_status: 429,
    });
    const before = await acceptedAtService(baseUrl);
    const paused = h.waitFor(
      (e: DeskEvent) =>
        e.type === 'batch-progress' && e.batchId === batch.id && e.summary.pausedUntil !== null,
    );
    const done = await executeToEnd(h, batch);
    const event = (await paused) as Extract<DeskEvent, { type: 'batch-progress' }>;
    expect(Date.parse(event.summary.pausedUntil!)).toBeGreaterThan(Date.parse(done.startedAt!));
    expect(itemOf(done, CORE).state).toBe('accepted');
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
    await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
  });

  it('cancel stops sending; what was sent is followed to its end', async () => {
    const batch = await review([CORE, FRESH]);
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 150 });
    const before = await acceptedAtService(baseUrl);
    // Cancelled once the first is on its way to the service.
    const firstSending = h.waitFor(
      (e) =>
        e.type === 'batch-progress' &&
        e.batchId === batch.id &&
        e.items.some((i) => i.strategyId === CORE && i.state === 'sending'),
    );
    await h.desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
      stopAtFirstFailure: false,
      concurrency: 1,
    });
    await firstSending;
    const cancelled = await h.desk.batches.cancel({ batchId: batch.id });
    expect(cancelled.items.map((i) => i.state)).toEqual(['sending', 'ready']);
    await h.desk.batchFlow.sending(batch.id);
    await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
    await h.waitFor(batchEnded(batch.id));
    const done = await h.desk.batches.get({ batchId: batch.id });
    expect(done.items.map((i) => i.state)).toEqual(['accepted', 'not-sent']);
    expect(itemOf(done, CORE).versionStatus).toBe('COMPLETE');
    expect(itemOf(done, FRESH).reason).toMatch(/Cancelled before it was sent/);
    expect(done.words).toBe('cancelled after 1 of 2 (1 COMPLETE): review the rest again');
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
  });

  it('ends once every version’s end is settled and recorded, not at the first that reads ended', async () => {
    const batch = await review([CORE, FRESH]);
    const seen: string[] = [];
    const unsubscribe = h.desk.subscribe((e) => {
      if (e.type === 'version-status-changed' && e.ended) seen.push(e.versionId);
      if (batchEnded(batch.id)(e) && !seen.includes('batch ended')) seen.push('batch ended');
    });
    // Every answer is slow: both versions are followed from the same moment, both read ended in
    // their first poll, within a moment of each other, and each end's strategy read takes longer.
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 200 });
    await h.desk.batches.execute({
      batchId: batch.id,
      unticked: [],
      acknowledged: acknowledgementsOf(batch),
      stopAtFirstFailure: false,
    });
    await h.desk.batchFlow.sending(batch.id);
    await h.waitFor(batchEnded(batch.id));
    await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
    unsubscribe();
    const done = await h.desk.batches.get({ batchId: batch.id });
    const versions = done.items.map((i) => i.versionId!);
    expect(versions.every((v) => v !== null)).toBe(true);
    expect(seen.toSorted()).toEqual([...versions, 'batch ended'].toSorted());
    expect(seen.at(-1)).toBe('batch ended');
    // Each version's end entry comes before the batch's.
    const ends = await h.desk.activity.list({
      profileId,
      kinds: ['version-ended', 'batch-ended'],
      offset: 0,
      limit: 10,
    });
    const [batchEnd, ...versionEnds] = ends.entries;
    expect(batchEnd!.kind).toBe('batch-ended');
    expect(
      versionEnds
        .slice(0, 2)
        .map((e) => e.versionId)
        .toSorted(),
    ).toEqual(versions.toSorted());
  });

  it('never executes a strategy twice: one batch from two windows, two batches at once', async () => {
    const batch = await review([CORE]);
    const before = await acceptedAtService(baseUrl);
    const calls = await Promise.allSettled([
      h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
      h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
    ]);
    expect(calls.map((c) => c.status).sort()).toEqual(['fulfilled', 'rejected']);
    await h.desk.batchFlow.sending(batch.id);
    await h.waitFor(batchEnded(batch.id));
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });

    // Two reviews of the same strategy: the newer supersedes the older, whose execute is refused.
    const revisionId = await newRevision();
    const reviewCore = () => h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    const execute = (batchId: string) =>
      h.desk.batches.execute({
        batchId,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      });
    const older = await reviewCore();
    const first = await reviewCore();
    await expect(execute(older.id)).rejects.toMatchObject({ kind: 'confirmation-outdated' });
    // A review read while the newer one starts sending does not supersede it (it is sending):
    // both sent at once, the journal's claim lets one through (or the review saw the claim).
    const twice = await acceptedAtService(baseUrl);
    const reading = reviewCore();
    await execute(first.id);
    const second = await reading;
    await execute(second.id);
    await Promise.all([first, second].map((b) => h.desk.batchFlow.sending(b.id)));
    expect(itemOf(await h.desk.batches.get({ batchId: first.id }), CORE).state).toBe('accepted');
    expect(['skipped', 'excluded']).toContain(
      itemOf(await h.desk.batches.get({ batchId: second.id }), CORE).state,
    );
    expect(gained(twice, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1 });
  });
});
