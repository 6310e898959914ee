import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_STRATEGY_IDS as DEMO,
  HALTED_INCOME,
} from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { wholeBook, WHOLE_BOOK } from '../../support/book';

/**
 * The book's model column and its entry points to models, through the real desk, the sandbox and
 * SQLite: each row names the model its strategy follows and the sync state the Models screen
 * shows, sorts by it, follows an assignment at once, and a selection tells the revisions followed.
 */
describe('the book and models', () => {
  let h: DeskHarness;
  let profileId: string;
  let demoModelId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5, demoModel: true });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    demoModelId = (await h.desk.models.list({}))[0]!.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('shows each strategy’s model and sync state, as the Models screen tells them', async () => {
    const rows = await wholeBook(h, profileId);
    const followers = await h.desk.models.followers({ modelId: demoModelId, profileId });
    const words = {
      'in-sync': 'in-sync',
      'out-of-sync': 'out-of-sync',
      'target-unknown': 'target-unknown',
      'possibly-changed-elsewhere': 'changed-elsewhere',
      'rebalance-failed': 'rebalance-failed',
    } as const;
    expect(followers).toHaveLength(7);
    for (const f of followers)
      expect(rows.find((r) => r.strategyId === f.strategyId)?.model).toEqual({
        id: demoModelId,
        name: 'Demo model',
        sync: words[f.sync.state],
      });
    expect(rows.find((r) => r.strategyId === BOOK.globalGrowth)?.model?.sync).toBe(
      'changed-elsewhere',
    );
    expect(rows.find((r) => r.strategyId === DEMO.coreEquity)?.model).toBeNull();
  });

  it('sorts by model, those following none last, and follows an assignment at once', async () => {
    const core = await h.desk.models.create({
      name: 'Another model',
      start: { kind: 'strategy', profileId, strategyId: DEMO.coreEquity },
    });
    await h.desk.models.assign({
      profileId,
      modelId: core.id,
      strategyIds: [DEMO.coreEquity, BOOK.bondLadder],
    });
    const page = await h.desk.book.rows({
      profileId,
      query: { ...WHOLE_BOOK, sort: 'model' },
      offset: 0,
      limit: 500,
    });
    expect(page.rows.map((r) => r.model?.name ?? null)).toEqual([
      'Another model',
      'Another model',
      ...Array<string>(6).fill('Demo model'),
      null,
      null,
    ]);
    const row = (id: string) => page.rows.find((r) => r.strategyId === id)!;
    expect(row(DEMO.coreEquity).model).toMatchObject({ name: 'Another model', sync: 'in-sync' });
    expect(row(BOOK.bondLadder).model).toMatchObject({
      name: 'Another model',
      sync: 'out-of-sync',
    });
  });

  it('tells a selection’s strategies grouped by the model revision each follows', async () => {
    const found = await h.desk.book.selectionModels({
      profileId,
      selection: {
        kind: 'ids',
        strategyIds: [
          DEMO.freshStart,
          DEMO.coreEquity,
          HALTED_INCOME.strategyId,
          BOOK.legacyBalanced,
        ],
      },
    });
    expect(found.strategyIds).toHaveLength(4);
    expect(found.following).toBe(3);
    expect(found.models.map((m) => [m.modelName, m.revisionNumber, m.strategyIds.length])).toEqual([
      ['Demo model', 1, 2],
      ['Another model', 1, 1],
    ]);
    const all = await h.desk.book.selectionModels({ profileId, selection: { kind: 'all' } });
    expect(all.strategyIds).toHaveLength(10);
    expect(all.following).toBe(8);
  });
});
