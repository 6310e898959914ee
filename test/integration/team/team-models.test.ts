import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Client } from 'pg';
import type { DeskEvent, DeskEventOf } from '../../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { itWithPostgres as it, useTeamDatabase } from '../../support/team-cluster';
import { refusal } from '../../support/refusal';

/**
 * One model library for a team (docs/team.md), through the real parts: two desks, each with its
 * own SQLite file and sandbox, on one throwaway PostgreSQL team database. A model of one desk's
 * own library is copied into the team's (the same hash, recorded in the team's log); a revision
 * saved on one desk and an assignment made on the other reach each other by LISTEN/NOTIFY into
 * each desk's cache; a save from an old revision and a member without the model admin role are
 * refused in words; with the team store stopped the cache still reads and a save says why not.
 */

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;
const team = useTeamDatabase();
const db = () => team.current!;

type ModelChanged = DeskEventOf<'model-changed'>;
const modelChanged =
  (test: (e: ModelChanged) => boolean) =>
  (e: DeskEvent): boolean =>
    e.type === 'model-changed' && test(e);

describe('a team’s model library across two desks', () => {
  let a: DeskHarness;
  let b: DeskHarness;
  let profileA: string;
  let profileB: string;
  let owner: Client;

  beforeAll(async () => {
    if (!team.current) return;
    await db().addMember('carol', ['drafter', 'model-admin']);
    await db().addMember('dan', ['drafter', 'model-admin']);
    await db().addMember('erin', ['drafter']);
    owner = await db().owner();
    a = await openDeskHarness({ stepMs: 0 });
    b = await openDeskHarness({ stepMs: 0 });
    profileA = (await a.desk.profiles.useSandbox({})).id;
    profileB = (await b.desk.profiles.useSandbox({})).id;
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('copies a desk’s model into the team, shares saves and assignments, refuses in words', async () => {
    // Desk A's own model, made before it joins a team.
    const own = await a.desk.models.create({ name: 'Growth', start: { kind: 'empty' } });
    const ownSaved = await a.desk.models.saveRevision({
      modelId: own.id,
      rows: [
        { symbol: 'aapl', weight: '30.0' },
        { symbol: 'MSFT', weight: '20' },
      ],
    });
    await db().join(a.desk, profileA, 'carol');
    await db().join(b.desk, profileB, 'erin');

    // Erin may draft, not save a model: the team store says so, nothing is kept on her desk.
    const notAdmin = await refusal(
      b.desk.models.create({ name: 'Erin’s', start: { kind: 'empty' }, profileId: profileB }),
    );
    expect(notAdmin.kind).toBe('team-refused');
    expect(notAdmin.message).toMatch(/model admin/);
    expect((await b.desk.models.list({ profileId: profileB })).map((m) => m.name)).toEqual([]);
    await b.desk.team.leave({ profileId: profileB });
    await db().join(b.desk, profileB, 'dan');

    // A team profile lists the desk's own models too, to be copied; assigning one is refused.
    const before = await a.desk.models.list({ profileId: profileA });
    expect(before.map((m) => [m.name, m.library])).toEqual([['Growth', 'desk']]);
    const ownAssign = await refusal(
      a.desk.models.assign({ profileId: profileA, modelId: own.id, strategyIds: [CORE] }),
    );
    expect(ownAssign.message).toMatch(/copy it into the team's library first/);

    const copied = await a.desk.models.copyToTeam({ modelId: own.id, profileId: profileA });
    expect(copied).toMatchObject({ library: 'team', name: 'Growth', revisionCount: 1 });
    expect(copied.latest!.hash).toBe(ownSaved.latest!.hash);
    expect(copied.latest!.savedBy).toBe('carol');
    const { rows: saved } = await owner.query<{ member: string; payload: string }>(
      "SELECT member, payload FROM team.activity WHERE kind = 'model.saved'",
    );
    expect(saved).toHaveLength(1);
    expect(saved[0]!.member).toBe('carol');
    expect(JSON.parse(saved[0]!.payload)).toMatchObject({
      hash: ownSaved.latest!.hash,
      copiedFrom: expect.stringContaining(own.id),
    });
    await refusal(a.desk.models.copyToTeam({ modelId: own.id, profileId: profileA }));

    // Desk B hears it and caches it with the team's ids, numbers and hash.
    await b.waitFor(modelChanged((e) => e.models.some((m) => m.id === copied.id)));
    const onB = await b.desk.models.get({ modelId: copied.id });
    expect(onB.revisions.map((r) => [r.id, r.number, r.hash])).toEqual(
      copied.revisions.map((r) => [r.id, r.number, r.hash]),
    );
    expect(onB.rows).toEqual([
      { symbol: 'AAPL', weight: '30' },
      { symbol: 'MSFT', weight: '20' },
    ]);

    // Dan saves revision 2 on desk B; desk A hears it. Carol's editor opened on revision 1.
    const second = await b.desk.models.saveRevision({
      modelId: copied.id,
      rows: [
        { symbol: 'AAPL', weight: '25' },
        { symbol: 'MSFT', weight: '20' },
      ],
      note: 'less Apple',
      basedOn: copied.latest!.id,
      profileId: profileB,
    });
    expect(second.latest).toMatchObject({ number: 2, savedBy: 'dan', note: 'less Apple' });
    const heard = await a.waitFor(modelChanged((e) => e.revision?.id === second.latest!.id));
    expect((heard as ModelChanged).profileId).toBe(profileA);
    const stale = await refusal(
      a.desk.models.saveRevision({
        modelId: copied.id,
        rows: [{ symbol: 'AAPL', weight: '10' }],
        basedOn: copied.latest!.id,
        profileId: profileA,
      }),
    );
    expect(stale.kind).toBe('confirmation-outdated');
    expect(stale.message).toMatch(/Revision 2 of “Growth” was saved since .*by dan/);

    // Carol assigns the core strategy on desk A; desk B's strategy follows it too.
    await a.desk.models.assign({ profileId: profileA, modelId: copied.id, strategyIds: [CORE] });
    await b.waitFor(
      modelChanged(
        (e) => e.change === 'assigned' && e.strategies.some((s) => s.strategyId === CORE),
      ),
    );
    expect(await b.desk.models.ofStrategy({ profileId: profileB, strategyId: CORE })).toMatchObject(
      { modelId: copied.id, revision: { number: 2 }, pinned: false },
    );
    await b.desk.models.unassign({ profileId: profileB, strategyIds: [CORE] });
    await a.waitFor(
      modelChanged(
        (e) => e.change === 'unassigned' && e.strategies.some((s) => s.strategyId === CORE),
      ),
    );
    expect(await a.desk.models.ofStrategy({ profileId: profileA, strategyId: CORE })).toBeNull();
    const { rows: kinds } = await owner.query<{ kind: string; member: string }>(
      "SELECT kind, member FROM team.activity WHERE kind LIKE 'model.%' ORDER BY seq",
    );
    expect(kinds.map((k) => `${k.kind} ${k.member}`)).toEqual([
      'model.named carol',
      'model.saved carol',
      'model.saved dan',
      'model.assigned carol',
      'model.assigned dan',
    ]);

    // A strategy desk B reads only after the team assigned it follows the team's model there too.
    await b.desk.strategies.remove({ profileId: profileB, strategyId: DIVIDEND });
    const heardMark = b.events.length;
    await a.desk.models.assign({
      profileId: profileA,
      modelId: copied.id,
      strategyIds: [DIVIDEND],
    });
    await b.waitFor(
      (e) =>
        b.events.indexOf(e) >= heardMark && e.type === 'team-changed' && e.topic === 'assignment',
    );
    await b.desk.strategies.add({ profileId: profileB, strategyId: DIVIDEND });
    await b.waitFor(
      modelChanged(
        (e) => e.change === 'assigned' && e.strategies.some((s) => s.strategyId === DIVIDEND),
      ),
    );
    expect(
      await b.desk.models.ofStrategy({ profileId: profileB, strategyId: DIVIDEND }),
    ).toMatchObject({ modelId: copied.id });

    // The team store stopped: the cache reads, a save says the team store is needed.
    await db().cluster.stop('fast');
    expect((await b.desk.models.list({ profileId: profileB })).map((m) => m.name)).toEqual([
      'Growth',
    ]);
    expect((await b.desk.models.get({ modelId: copied.id })).revisionCount).toBe(2);
    const offline = await refusal(
      b.desk.models.saveRevision({
        modelId: copied.id,
        rows: [{ symbol: 'AAPL', weight: '5' }],
        profileId: profileB,
      }),
    );
    expect(offline.kind).toBe('team-unavailable');
    expect(offline.message).toMatch(/needed to save a model in the team’s library/);
    await db().cluster.start();
  }, 60_000);
});
