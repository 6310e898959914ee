import { readFileSync } from 'node:fs';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { acceptedAtService, executeToEnd, gained, itemOf } from '../../support/batches';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const FRESH = DEMO_STRATEGY_IDS.freshStart;

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * A batch through the real desk, the built-in sandbox over HTTP and a real SQLite file: one
 * review of a model revision for the demo strategies, each executed through the one execution
 * flow, followed to the end, recorded in the activity log's chain.
 */
describe('a batch: one review for many, executed and followed together', () => {
  let h: DeskHarness;
  let profileId: string;
  let modelId: string;
  let baseUrl: string;

  /** A new revision of the model: Core Equity's target with `changes` applied (weight '0' drops it). */
  async function revision(changes: Record<string, string>): Promise<string> {
    const model = await h.desk.models.get({ modelId });
    const rows = model.rows
      .map((r) => ({ symbol: r.symbol, weight: changes[r.symbol] ?? r.weight }))
      .filter((r) => r.weight !== '0');
    for (const [symbol, weight] of Object.entries(changes))
      if (!rows.some((r) => r.symbol === symbol) && weight !== '0') rows.push({ symbol, weight });
    const latest = model.latest!;
    const same = await h.desk.models
      .saveRevision({ modelId, rows, note: JSON.stringify(changes) })
      .then(
        (saved) => saved.latest!.id,
        // The same rows as the latest: that revision.
        () => latest.id,
      );
    return same;
  }

  const entries = async (kind: 'batch-reviewed' | 'batch-ended' | 'execution-sent') =>
    (await h.desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 100 })).entries;

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

  it('reviews once: each strategy read fresh and previewed, sells whole on top, nothing sent', async () => {
    const revisionId = await revision({ JPM: '0', AAPL: '23' });
    const before = await acceptedAtService(baseUrl);

    const batch = await h.desk.batches.review({
      profileId,
      revisionId,
      strategyIds: [FRESH, DIVIDEND, CORE],
    });

    // A stable order, by name.
    expect(batch.items.map((i) => i.strategyName)).toEqual([
      'Core Equity',
      'Dividend Growth',
      'Fresh Start',
    ]);
    expect(batch.state).toBe('reviewed');
    expect(batch.revisionNumber).toBe(2);
    const core = itemOf(batch, CORE);
    expect(core.state).toBe('ready');
    expect(core.review?.target.kind).toBe('known');
    expect(core.review?.changes).toEqual([{ symbol: 'AAPL', from: '15', to: '23' }]);
    expect(core.review?.removes.map((r) => r.symbol)).toEqual(['JPM']);
    expect(core.review?.sellsWhole).toEqual([
      { symbol: 'JPM', quantity: expect.stringMatching(/^\d+(\.\d+)?$/) },
    ]);
    expect(core.review?.oldCash).toBe('12');
    expect(core.review?.newCash).toBe('12');
    // Dividend Growth holds none of the model: it sells all eight whole.
    expect(itemOf(batch, DIVIDEND).review?.sellsWhole).toHaveLength(8);
    const fresh = itemOf(batch, FRESH);
    expect(fresh.review?.target.kind).toBe('unknown');
    // No target known here: what the service does with each symbol cannot be predicted.
    expect(fresh.review?.uncertain).toHaveLength(6);
    // "sells JPM whole in 1 strategy" is at the top, with the others'.
    expect(batch.sellsWhole).toContainEqual({
      symbol: 'JPM',
      strategies: 1,
      names: ['Core Equity'],
    });
    expect(batch.sellsWhole.map((s) => s.symbol)).toContain('JNJ');
    // A row opens the full confirmation: the same preview a draft's Execute… shows.
    const preview = await h.desk.batches.preview({ batchId: batch.id, strategyId: CORE });
    expect(preview.strategy.id).toBe(CORE);
    expect(preview.positions.find((p) => p.symbol === 'JPM')?.sellsAll).toBe(true);

    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({});
    expect(await entries('batch-reviewed')).toEqual([]);
  });

  it('executes each through the one flow, follows to the end, and records review and end in the chain', async () => {
    const revisionId = await revision({ JPM: '0', AAPL: '23' });
    const batch = await h.desk.batches.review({
      profileId,
      revisionId,
      strategyIds: [CORE, DIVIDEND, FRESH],
    });
    const before = await acceptedAtService(baseUrl);

    const done = await executeToEnd(h, batch);

    // Dividend Growth has an unexecuted version at the service: refused, with the way to see it.
    const dividend = itemOf(done, DIVIDEND);
    expect(dividend).toMatchObject({ state: 'refused', exclusion: 'unexecuted-version' });
    expect(dividend.reason).toMatch(/Open the strategy/);
    for (const id of [CORE, FRESH]) {
      const item = itemOf(done, id);
      expect(item.state).toBe('accepted');
      expect(item.versionStatus).toBe('COMPLETE');
      expect(item.journalId).not.toBeNull();
    }
    expect(gained(before, await acceptedAtService(baseUrl))).toEqual({ [CORE]: 1, [FRESH]: 1 });
    expect(done.counts).toMatchObject({ accepted: 2, refused: 1, ready: 0, sending: 0 });
    // How the three that went out ended, failures first.
    expect(done.words).toBe('3 sent: 1 refused, 2 COMPLETE');
    expect(done.outcomes).toEqual([
      { outcome: 'refused', count: 1 },
      { outcome: 'COMPLETE', count: 2 },
    ]);
    expect(done.endedAt).not.toBeNull();
    // The orders' quantities per symbol and side, never summed across symbols: Core Equity
    // bought AAPL and sold JPM whole; every order filled, nothing left.
    const sentOrders = [CORE, FRESH].flatMap(
      (id) =>
        h.desk.store.versions.get(profileId, itemOf(done, id).versionId!, { orders: true })!
          .orders!,
    );
    const keys = [...new Set(sentOrders.map((o) => `${o.symbol} ${o.side}`))].sort();
    expect(done.totals.quantities.map((q) => `${q.symbol} ${q.side}`)).toEqual(keys);
    const jpm = done.totals.quantities.find((q) => q.symbol === 'JPM')!;
    expect(jpm).toMatchObject({ side: 'SELL', left: '0' });
    expect(
      new Decimal(jpm.ordered).eq(sentOrders.find((o) => o.symbol === 'JPM')!.order_quantity),
    ).toBe(true);
    expect(done.totals.orders).toEqual([{ status: 'FILLED', count: sentOrders.length }]);

    // The review entry: the revision and its hash, included and excluded, acknowledgements.
    const [reviewed] = await entries('batch-reviewed');
    const reviewDetail = await h.desk.activity.get({ seq: reviewed!.seq });
    const reviewRow = h.desk.store.activity.get(reviewed!.seq)!;
    const payload = JSON.parse(reviewRow.payload) as Record<string, unknown>;
    expect(payload).toMatchObject({
      batchId: batch.id,
      revisionId,
      revisionNumber: batch.revisionNumber,
      hash: batch.revisionHash,
      excluded: [],
    });
    expect((payload.included as unknown[]).length).toBe(3);
    expect(reviewDetail.summary).toMatch(
      /reviewed and executed: 3 strategies included, 0 excluded/,
    );
    // Each execution's entry refers to the review's.
    const core = itemOf(done, CORE);
    const sentSeq = h.desk.store.activity.executionSentSeq(core.journalId!)!;
    expect(h.desk.store.activity.get(sentSeq)!.refers_to).toBe(reviewed!.seq);
    // The end entry: outcome counts, referring to the review.
    const [ended] = await entries('batch-ended');
    const endRow = h.desk.store.activity.get(ended!.seq)!;
    expect(endRow.refers_to).toBe(reviewed!.seq);
    expect(JSON.parse(endRow.payload)).toMatchObject({
      batchId: batch.id,
      counts: { accepted: 2, refused: 1 },
      versionStatuses: { COMPLETE: 2 },
    });
    // The list line says how they ended, failures first: the summary and the Outcome column.
    expect(ended!.summary).toBe('Batch ended: 3 sent: 1 refused, 2 COMPLETE');
    expect(ended!.outcome).toBe('1 refused, 2 COMPLETE');
    expect((await h.desk.activity.verify({})).ok).toBe(true);

    // Both exports: every order of the batch with its batch, model and revision; one row per strategy.
    const orders = (await h.desk.batches.exportOrders({ batchId: batch.id }))!;
    const lines = readFileSync(orders.path, 'utf8').split('\r\n').filter(Boolean);
    expect(lines[0]).toMatch(
      /^strategy_id,strategy_name,version_id,.*,batch_id,model_id,model_name,revision_number,revision_hash$/,
    );
    const versionOrders = [CORE, FRESH].reduce(
      (n, id) =>
        n +
        h.desk.store.versions.get(profileId, itemOf(done, id).versionId!, { orders: true })!.orders!
          .length,
      0,
    );
    expect(orders.rows).toBe(versionOrders);
    expect(lines).toHaveLength(versionOrders + 1);
    expect(lines[1]).toContain(
      `,${batch.id},${modelId},Core model,${batch.revisionNumber},${batch.revisionHash}`,
    );
    const summary = (await h.desk.batches.exportSummary({ batchId: batch.id }))!;
    const rows = readFileSync(summary.path, 'utf8').split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(
      'batch_id,model_name,revision_number,position,strategy_id,strategy_name,outcome,reason,version_id,version_status,orders,orders_filled,orders_failed',
    );
    expect(rows).toHaveLength(4);
    expect(rows[1]).toMatch(new RegExp(`^${batch.id},Core model,\\d+,1,${CORE},Core Equity,sent,`));
    expect(rows[2]).toContain(',Dividend Growth,refused,');

    // Executed once: a second window's execute is refused and sends nothing.
    const again = await rejection(
      h.desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      }),
    );
    expect(again.kind).toBe('confirmation-outdated');
  });

  it('excludes with the reason: in sync, an unexecuted version in the way, a rebalance running, a scope missing', async () => {
    const revisionId = (await h.desk.models.get({ modelId })).latest!.id;
    const batch = await h.desk.batches.review({
      profileId,
      revisionId,
      strategyIds: [CORE, DIVIDEND],
    });
    expect(itemOf(batch, CORE)).toMatchObject({ state: 'excluded', exclusion: 'in-sync' });
    // The refusal named the version in the way: now known, it excludes the strategy up front.
    const dividend = itemOf(batch, DIVIDEND);
    expect(dividend).toMatchObject({ state: 'excluded', exclusion: 'unexecuted-version' });
    expect(dividend.reason).toMatch(/open the strategy to see it/);

    // A rebalance still running.
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/timing', { step_ms: 60_000 });
    try {
      const running = await h.desk.batches.review({
        profileId,
        revisionId: await revision({ AAPL: '22' }),
        strategyIds: [CORE],
      });
      await h.desk.batches.execute({
        batchId: running.id,
        unticked: [],
        acknowledged: [],
        stopAtFirstFailure: false,
      });
      await h.desk.batchFlow.sending(running.id);
      const next = await h.desk.batches.review({
        profileId,
        revisionId: await revision({ AAPL: '21' }),
        strategyIds: [CORE],
      });
      expect(itemOf(next, CORE)).toMatchObject({
        state: 'excluded',
        exclusion: 'rebalance-running',
      });
    } finally {
      await sandboxAdmin(baseUrl, 'PUT', '/sandbox/timing', { step_ms: 5 });
    }

    // A client without the execute scope: every strategy excluded, none read.
    const profile = h.desk.store.profiles.get(profileId)!;
    h.desk.store.profiles.setGrantedScopes(profileId, [
      'strategies:read',
      'strategy_versions:read',
    ]);
    try {
      const noScope = await h.desk.batches.review({
        profileId,
        revisionId,
        strategyIds: [CORE, FRESH],
      });
      expect(noScope.items.map((i) => i.exclusion)).toEqual(['scope-missing', 'scope-missing']);
      expect(noScope.items[0]!.reason).toMatch(/strategy_versions:execute/);
    } finally {
      h.desk.store.profiles.setGrantedScopes(profileId, profile.grantedScopes);
    }
  });
});
