import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_STRATEGY_IDS,
  HALTED_INCOME,
} from '../../../electron/sandbox';
import { DEMO_MODEL } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd, itemOf } from '../../support/batches';
import { wholeBook } from '../../support/book';

/**
 * The demo model of the built-in sandbox, through the real desk, the sandbox over HTTP and a real
 * SQLite file: a fresh sandbox profile follows it with part of the demo book, and one review of
 * all its followers shows every case a batch review knows.
 */
describe('the demo model of the built-in sandbox profile', () => {
  let h: DeskHarness;
  let profileId: string;

  const entries = async (kind: 'model-revision-saved' | 'model-assigned') =>
    (await h.desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 50 })).entries;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5, demoModel: true });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('starts the profile with the demo model, its followers added, saved and assigned in the activity log', async () => {
    const [model, ...others] = await h.desk.models.list({});
    expect(others).toEqual([]);
    expect(model?.name).toBe('Demo model');
    const detail = await h.desk.models.get({ modelId: model!.id });
    expect(detail.rows.map((r) => `${r.symbol} ${r.weight}`)).toEqual([
      'AGG 40',
      'BND 30',
      'TLT 20',
    ]);
    const followers = await h.desk.models.followers({ modelId: model!.id, profileId });
    expect(Object.fromEntries(followers.map((f) => [f.strategyName, f.sync.state]))).toEqual({
      'Balanced Growth': 'target-unknown',
      'Balanced Retirement': 'out-of-sync',
      'Bond Ladder': 'in-sync',
      'Global Growth': 'possibly-changed-elsewhere',
      'Halted Income': 'out-of-sync',
      'Legacy Balanced': 'out-of-sync',
      'Tech Leaders': 'out-of-sync',
    });
    // The first three stay as they were, following no model.
    expect(
      await h.desk.models.ofStrategy({ profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity }),
    ).toBeNull();
    expect(await entries('model-revision-saved')).toHaveLength(1);
    expect(await entries('model-assigned')).toHaveLength(DEMO_MODEL.followers.length);
  });

  it('shows every case in one review of all its followers, and HALTED fails when executed', async () => {
    const [model] = await h.desk.models.list({});
    const { latest } = await h.desk.models.get({ modelId: model!.id });
    const batch = await h.desk.batches.review({
      profileId,
      revisionId: latest!.id,
      strategyIds: DEMO_MODEL.followers.map((f) => f.strategyId),
    });
    const line = (id: string) => {
      const item = itemOf(batch, id);
      return { state: item.state, exclusion: item.exclusion, ack: item.needsAcknowledgement };
    };
    expect(line(BOOK.bondLadder)).toEqual({ state: 'excluded', exclusion: 'in-sync', ack: false });
    expect(line(BOOK.balancedRetirement)).toEqual({ state: 'ready', exclusion: null, ack: false });
    expect(line(BOOK.balancedGrowth)).toEqual({ state: 'ready', exclusion: null, ack: true });
    expect(line(BOOK.globalGrowth)).toEqual({ state: 'ready', exclusion: null, ack: true });
    expect(line(BOOK.legacyBalanced)).toMatchObject({
      state: 'excluded',
      exclusion: 'liquidate-only',
    });
    expect(itemOf(batch, BOOK.legacyBalanced).reason).toMatch(/AGG/);
    expect(line(BOOK.techLeaders)).toMatchObject({
      state: 'excluded',
      exclusion: 'unexecuted-version',
    });
    expect(itemOf(batch, BOOK.techLeaders).reason).toContain(
      '48cfadfa-0f26-41fb-a376-3405d9f41138',
    );
    expect(line(HALTED_INCOME.strategyId)).toEqual({ state: 'ready', exclusion: null, ack: false });
    expect(itemOf(batch, HALTED_INCOME.strategyId).review?.sellsWhole.map((s) => s.symbol)).toEqual(
      ['HALTED'],
    );
    const sold = (id: string) =>
      itemOf(batch, id)
        .review?.sellsWhole.map((s) => s.symbol)
        .sort();
    expect(sold(BOOK.balancedRetirement)).toEqual(['VOO', 'VYM']);
    expect(sold(BOOK.balancedGrowth)).toEqual(['QQQ', 'SPY']);
    expect(sold(BOOK.globalGrowth)).toEqual(['QQQ', 'TSLA', 'VTI']);
    expect(itemOf(batch, BOOK.globalGrowth).review?.doubts).toContain('stale');
    expect(itemOf(batch, BOOK.balancedGrowth).review?.target.kind).toBe('unknown');
    expect(batch.acknowledgementNeeded.map((a) => a.strategyName)).toEqual([
      'Balanced Growth',
      'Global Growth',
    ]);
    // Two strategies sell QQQ whole: the line at the top of the review.
    expect(batch.sellsWhole).toContainEqual({
      symbol: 'QQQ',
      strategies: 2,
      names: ['Balanced Growth', 'Global Growth'],
    });

    const ended = await executeToEnd(h, batch);
    const halted = itemOf(ended, HALTED_INCOME.strategyId);
    expect(halted.versionStatus).toBe('FAILED');
    expect(halted.failedOrPartial).toBe(true);
    expect(halted.reason).toMatch(/HALTED/);
    expect(itemOf(ended, BOOK.balancedRetirement).versionStatus).toBe('COMPLETE');
    // The batch says how its versions ended, the failure first, in its words and counts.
    expect(ended.words).toBe('4 sent: 1 FAILED, 3 COMPLETE');
    expect(ended.outcomes).toEqual([
      { outcome: 'FAILED', count: 1 },
      { outcome: 'COMPLETE', count: 3 },
    ]);
    // HALTED's order failed: the quantity left to sell is the whole of it, on its own line.
    const halting = ended.totals.quantities.find((q) => q.symbol === 'HALTED')!;
    expect(halting).toMatchObject({ side: 'SELL', filled: '0' });
    expect(halting.left).toBe(halting.ordered);
    expect(ended.totals.orders.find((o) => o.status === 'FAILED')?.count).toBe(1);

    // Halted Income's known target is the model's, but its rebalance to it failed: not in sync,
    // on the Models screen, the strategy's "Follows" and the book's model column alike.
    const followers = await h.desk.models.followers({ modelId: model!.id, profileId });
    const haltedFollower = followers.find((f) => f.strategyId === HALTED_INCOME.strategyId)!;
    expect(haltedFollower.sync).toEqual({
      state: 'rebalance-failed',
      versionId: halted.versionId,
      failedSymbols: ['HALTED'],
    });
    expect(followers.find((f) => f.strategyId === BOOK.balancedRetirement)?.sync.state).toBe(
      'in-sync',
    );
    expect(
      (await h.desk.models.ofStrategy({ profileId, strategyId: HALTED_INCOME.strategyId }))?.sync
        .state,
    ).toBe('rebalance-failed');
    const again = await h.desk.batches.review({
      profileId,
      revisionId: latest!.id,
      strategyIds: [HALTED_INCOME.strategyId],
    });
    // A review agrees: not in sync, so not excluded as such; it would sell HALTED again.
    expect(again.items[0]).toMatchObject({ state: 'ready', exclusion: null });
    expect(again.items[0]!.review?.sellsWhole.map((s) => s.symbol)).toEqual(['HALTED']);
    expect(
      (await wholeBook(h, profileId)).find((r) => r.strategyId === HALTED_INCOME.strategyId)?.model
        ?.sync,
    ).toBe('rebalance-failed');

    // The activity view tells both batch entries as facts and tables, never raw JSON.
    const entry = async (kind: 'batch-reviewed' | 'batch-ended') => {
      const [found] = (
        await h.desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 10 })
      ).entries;
      const detail = await h.desk.activity.get({ seq: found!.seq });
      return {
        fact: (label: string) => detail.facts.find((f) => f.label === label)?.value,
        table: (title: string) => detail.tables.find((t) => t.title === title),
      };
    };
    const reviewed = await entry('batch-reviewed');
    expect(reviewed.fact('Batch')).toBe(batch.id);
    expect(reviewed.fact('SHA-256 of the canonical rows')).toBe(batch.revisionHash);
    expect(reviewed.fact('Included')).toBe('4');
    expect(reviewed.fact('Uncertain targets acknowledged')).toBe('Balanced Growth, Global Growth');
    expect(reviewed.table('Included')?.rows.map((r) => r[0])).toEqual([
      'Balanced Growth',
      'Balanced Retirement',
      'Global Growth',
      'Halted Income',
    ]);
    const excluded = reviewed.table('Excluded')!;
    expect(excluded.columns).toEqual(['Strategy', 'Strategy id', 'Reason']);
    expect(excluded.rows.find((r) => r[0] === 'Legacy Balanced')?.[2]).toMatch(/^Liquidate-only/);
    const end = await entry('batch-ended');
    // The state with how it ended, once (the entry's Outcome says how the versions ended).
    expect(end.fact('Batch state')).toBe(ended.words);
    expect(end.fact('Outcome')).toBeUndefined();
    const [endEntry] = (
      await h.desk.activity.list({ profileId, kinds: ['batch-ended'], offset: 0, limit: 10 })
    ).entries;
    expect(endEntry!.summary).toBe('Batch ended: 4 sent: 1 FAILED, 3 COMPLETE');
    expect(endEntry!.outcome).toBe('1 FAILED, 3 COMPLETE');
    expect(end.fact('Versions FAILED')).toBe('1');
    expect(end.fact('Versions COMPLETE')).toBe('3');
    expect(end.fact('Strategies sent')).toBe('4');
  });

  it('is given once: opening the profile again neither adds a model nor undoes a manager’s change', async () => {
    const [model] = await h.desk.models.list({});
    await h.desk.models.unassign({ profileId, strategyIds: [BOOK.bondLadder] });
    await h.restart();
    await h.desk.profiles.useSandbox({});
    expect((await h.desk.models.list({})).map((m) => m.name)).toEqual(['Demo model']);
    expect(await h.desk.models.ofStrategy({ profileId, strategyId: BOOK.bondLadder })).toBeNull();
    expect(await h.desk.models.followers({ modelId: model!.id, profileId })).toHaveLength(6);
    expect(await entries('model-revision-saved')).toHaveLength(1);
    expect(await entries('model-assigned')).toHaveLength(DEMO_MODEL.followers.length);
  });
});
