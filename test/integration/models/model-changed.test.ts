import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import type { DeskEventOf } from '../../../shared/contract';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const FRESH = DEMO_STRATEGY_IDS.freshStart;

/**
 * `model-changed` through the real desk, the built-in sandbox and a real SQLite file: a save, an
 * assign and an unassign each announce the models' lines and every strategy they moved, as
 * `models.ofStrategy` gives it now; a refused change announces nothing.
 */
describe('model-changed', () => {
  let h: DeskHarness;
  let profileId: string;
  const changes = () =>
    h.events.filter((e): e is DeskEventOf<'model-changed'> => e.type === 'model-changed');
  const follows = (e: DeskEventOf<'model-changed'>) =>
    e.strategies.map((s) => [
      s.strategyId,
      s.follows && `${s.follows.revision.number}${s.follows.pinned ? ' pinned' : ''}`,
      s.follows?.sync.state ?? null,
    ]);

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is announced on assign, on save (followers of the latest only) and on unassign', async () => {
    const model = await h.desk.models.create({
      name: 'Core model',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    const first = model.latest!;
    expect(changes()).toEqual([]);

    await h.desk.models.assign({
      profileId,
      modelId: model.id,
      strategyIds: [CORE, DIVIDEND, FRESH],
    });
    await h.desk.models.assign({
      profileId,
      modelId: model.id,
      strategyIds: [FRESH],
      revisionId: first.id,
    });
    const [assigned, pinned] = changes();
    expect(assigned).toMatchObject({
      change: 'assigned',
      profileId,
      revision: { id: first.id, number: 1, hash: first.hash },
      models: [{ id: model.id, followers: 3, followersInProfile: 3 }],
    });
    expect(follows(assigned!)).toEqual([
      [CORE, '1', 'in-sync'],
      [DIVIDEND, '1', 'out-of-sync'],
      [FRESH, '1', 'target-unknown'],
    ]);
    expect(follows(pinned!)).toEqual([[FRESH, '1 pinned', 'target-unknown']]);
    // What the event carries is what the desk answers when asked.
    expect(assigned!.strategies[0]!.follows).toEqual(
      await h.desk.models.ofStrategy({ profileId, strategyId: CORE }),
    );

    // The same assignment again changes nothing: nothing announced.
    await h.desk.models.assign({ profileId, modelId: model.id, strategyIds: [CORE] });
    expect(changes()).toHaveLength(2);

    const [top, ...rest] = model.rows;
    const saved = await h.desk.models.saveRevision({
      modelId: model.id,
      rows: [{ symbol: top!.symbol, weight: '1' }, ...rest],
      note: 'Less of the first',
      basedOn: first.id,
      profileId,
    });
    const revisionSaved = changes()[2]!;
    expect(revisionSaved).toMatchObject({
      change: 'revision-saved',
      profileId: null,
      revision: { id: saved.latest!.id, number: 2, hash: saved.latest!.hash },
      models: [{ id: model.id, revisionCount: 2, latest: { number: 2 } }],
    });
    // The pinned follower stays on revision 1: not moved, not announced.
    expect(follows(revisionSaved)).toEqual([
      [CORE, '2', 'out-of-sync'],
      [DIVIDEND, '2', 'out-of-sync'],
    ]);

    // A refused save (the editor is outdated) announces nothing.
    await expect(
      h.desk.models.saveRevision({ modelId: model.id, rows: model.rows, basedOn: first.id }),
    ).rejects.toMatchObject({ kind: 'confirmation-outdated' });
    expect(changes()).toHaveLength(3);

    await h.desk.models.unassign({ profileId, strategyIds: [FRESH, DIVIDEND] });
    const unassigned = changes()[3]!;
    expect(unassigned).toMatchObject({
      change: 'unassigned',
      revision: null,
      models: [{ id: model.id, followers: 1, followersInProfile: 1 }],
    });
    expect(follows(unassigned)).toEqual([
      [FRESH, null, null],
      [DIVIDEND, null, null],
    ]);
  });
});
