import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revisionHash } from '../../../electron/core/models/hash';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';

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
 * Models through the real desk, the built-in sandbox over HTTP and a real SQLite file: a model
 * made from a strategy's known target, strategies of the demo book following it, and their sync
 * states as the demo data makes them.
 */
describe('models and the strategies that follow them', () => {
  let h: DeskHarness;
  let profileId: string;
  const entries = async (kind: 'model-revision-saved' | 'model-assigned' | 'model-unassigned') =>
    (await h.desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 50 })).entries;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it("starts from a strategy's known target: revision 1, hashed in canonical form, recorded", async () => {
    const core = await h.desk.strategies.get({ profileId, strategyId: CORE });
    expect(core.currentTarget?.versionId).toBe(DEMO_VERSION_IDS.coreEquityExecuted);
    const model = await h.desk.models.create({
      name: 'Core model',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    expect(model.revisions).toHaveLength(1);
    expect(model.latest?.number).toBe(1);
    expect(model.latest?.note).toBe(
      `From the known target of “Core Equity” (version ${DEMO_VERSION_IDS.coreEquityExecuted})`,
    );
    expect(model.rows).toEqual(core.currentTarget!.positions);
    expect(model.latest?.hash).toBe(revisionHash(core.currentTarget!.positions));
    const [saved] = await entries('model-revision-saved');
    expect(saved?.summary).toBe('Model “Core model” saved as revision 1');

    // A strategy with no known target cannot give one: refused in words, nothing created.
    const refused = await rejection(
      h.desk.models.create({
        name: 'Nothing',
        start: { kind: 'strategy', profileId, strategyId: FRESH },
      }),
    );
    expect(refused.kind).toBe('invalid-input');
    expect(refused.message).toMatch(/current target of “Fresh Start” is not known here/);
    expect((await h.desk.models.list({})).map((m) => m.name)).toEqual(['Core model']);
  });

  it('assigns demo strategies and tells in sync, out of sync and target unknown apart', async () => {
    const [model] = await h.desk.models.list({});
    const followers = await h.desk.models.assign({
      profileId,
      modelId: model!.id,
      strategyIds: [CORE, DIVIDEND, FRESH],
    });
    expect(followers.map((f) => [f.strategyName, f.sync.state])).toEqual([
      ['Core Equity', 'in-sync'],
      ['Dividend Growth', 'out-of-sync'],
      ['Fresh Start', 'target-unknown'],
    ]);
    const dividend = await h.desk.strategies.get({ profileId, strategyId: DIVIDEND });
    const differences =
      followers[1]!.sync.state === 'out-of-sync' ? followers[1]!.sync.differences : [];
    // Every symbol of either side differs (the two targets share none), with both weights.
    const modelRows = (await h.desk.models.get({ modelId: model!.id })).rows;
    const expected = [
      ...modelRows.map((r) => ({ symbol: r.symbol, modelWeight: r.weight, targetWeight: '0' })),
      ...dividend.currentTarget!.positions.map((p) => ({
        symbol: p.symbol,
        modelWeight: '0',
        targetWeight: p.weight,
      })),
    ].sort((a, b) => (a.symbol < b.symbol ? -1 : 1));
    expect(differences).toEqual(expected);

    expect(await h.desk.models.ofStrategy({ profileId, strategyId: CORE })).toMatchObject({
      modelName: 'Core model',
      pinned: false,
      revision: { number: 1 },
      targetVersionId: DEMO_VERSION_IDS.coreEquityExecuted,
      sync: { state: 'in-sync' },
    });
    const assigned = await entries('model-assigned');
    expect(assigned.map((e) => e.strategyId).sort()).toEqual([CORE, DIVIDEND, FRESH].sort());
    expect(assigned[0]!.summary).toMatch(/follows model “Core model” \(revision 1\)/);
    // Assigning again to the same revision changes nothing and records nothing.
    await h.desk.models.assign({ profileId, modelId: model!.id, strategyIds: [CORE] });
    expect(await entries('model-assigned')).toHaveLength(3);

    // The list counts followers in the profile asked: none in a profile where none follows it.
    const other = await h.desk.profiles.create({
      name: 'Another book',
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'manager',
      secret: 'another-secret',
    });
    const countIn = async (asked: { profileId?: string }) => {
      const [listed] = await h.desk.models.list(asked);
      return [listed!.followersInProfile, listed!.followers];
    };
    expect(await countIn({ profileId })).toEqual([3, 3]);
    expect(await countIn({ profileId: other.id })).toEqual([0, 3]);
    expect(await countIn({})).toEqual([null, 3]);
    await h.desk.profiles.remove({ profileId: other.id });
  });

  it('a new revision puts followers of the latest out of sync; one pinned stays in sync', async () => {
    const [summary] = await h.desk.models.list({});
    const model = await h.desk.models.get({ modelId: summary!.id });
    const first = model.latest!;
    const [top, ...rest] = model.rows;
    const rows = [{ symbol: top!.symbol.toLowerCase(), weight: `${top!.weight}.000` }, ...rest];
    // The same weights typed otherwise are the same hash: nothing new to save.
    const same = await rejection(
      h.desk.models.saveRevision({ modelId: model.id, rows, note: 'retyped', basedOn: first.id }),
    );
    expect(same.message).toMatch(/same weights as revision 1/);

    const bad = await rejection(
      h.desk.models.saveRevision({
        modelId: model.id,
        rows: [...rows, { symbol: 'ZZZ', weight: '99' }],
        basedOn: first.id,
        profileId,
      }),
    );
    expect(bad.kind).toBe('invalid-model');
    expect(bad.details).toMatchObject({
      messages: expect.arrayContaining([expect.stringMatching(/ZZZ.*above 98/)]),
    });

    const lowered = { symbol: top!.symbol, weight: '1' };
    const second = await h.desk.models.saveRevision({
      modelId: model.id,
      rows: [lowered, ...rest],
      note: 'Less of the first',
      basedOn: first.id,
      profileId,
    });
    expect(second.latest).toMatchObject({ number: 2, note: 'Less of the first' });
    // Saved from a stale editor (based on revision 1 while 2 exists): refused, nothing saved.
    const outdated = await rejection(
      h.desk.models.saveRevision({ modelId: model.id, rows, basedOn: first.id }),
    );
    expect(outdated.kind).toBe('confirmation-outdated');
    expect((await h.desk.models.get({ modelId: model.id })).revisionCount).toBe(2);

    const core = await h.desk.models.ofStrategy({ profileId, strategyId: CORE });
    expect(core?.revision.number).toBe(2);
    expect(core?.sync).toEqual({
      state: 'out-of-sync',
      differences: [{ symbol: top!.symbol, modelWeight: '1', targetWeight: top!.weight }],
    });
    const compared = await h.desk.models.compare({ from: first.id, to: second.latest!.id });
    expect(compared).toMatchObject({
      added: [],
      removed: [],
      changed: [{ symbol: top!.symbol, from: top!.weight, to: '1' }],
      unchanged: rest.length,
    });

    const [pinned] = await h.desk.models.assign({
      profileId,
      modelId: model.id,
      strategyIds: [CORE],
      revisionId: first.id,
    });
    expect(pinned).toMatchObject({
      pinned: true,
      revision: { number: 1 },
      sync: { state: 'in-sync' },
    });
  });

  it('exports a revision as CSV that reads back to the same rows', async () => {
    const [summary] = await h.desk.models.list({});
    const written = await h.desk.models.exportCsv({ revisionId: summary!.latest!.id });
    const text = readFileSync(written!.path, 'utf8');
    expect(text.startsWith('symbol,weight\r\n')).toBe(true);
    const read = await h.desk.models.importCsv({ text });
    expect(read.rows).toEqual(
      (await h.desk.models.revision({ revisionId: summary!.latest!.id })).rows,
    );
    expect(read.problems).toEqual([]);
  });

  it('is possibly changed elsewhere once the strategy was executed outside this app', async () => {
    const [summary] = await h.desk.models.list({});
    await h.desk.models.assign({ profileId, modelId: summary!.id, strategyIds: [CORE] });
    const base = h.sandbox()!.baseUrl;
    const token = await tokenFor(base, 'manager');
    const answer = await call(base, 'POST', executePath(CORE), {
      token,
      body: target(['SPY', '40'], ['AAPL', '30']),
    });
    expect(answer.status).toBe(202);
    await waitForEnd(base, token, answer.headers.location as string);
    await h.desk.strategies.refresh({ profileId, strategyId: CORE });
    const core = await h.desk.models.ofStrategy({ profileId, strategyId: CORE });
    expect(core?.sync.state).toBe('possibly-changed-elsewhere');
    const followers = await h.desk.models.followers({ modelId: summary!.id, profileId });
    expect(followers.find((f) => f.strategyId === CORE)?.sync.state).toBe(
      'possibly-changed-elsewhere',
    );
  });

  it('unassigns (recorded per strategy) and refuses what is not there', async () => {
    const [summary] = await h.desk.models.list({});
    await h.desk.models.unassign({ profileId, strategyIds: [FRESH, FRESH] });
    expect(await h.desk.models.ofStrategy({ profileId, strategyId: FRESH })).toBeNull();
    const unassigned = await entries('model-unassigned');
    expect(unassigned.map((e) => e.strategyId)).toEqual([FRESH]);
    expect(
      (await h.desk.models.followers({ modelId: summary!.id, profileId })).map(
        (f) => f.strategyName,
      ),
    ).toEqual(['Core Equity', 'Dividend Growth']);

    const missing = await rejection(
      h.desk.models.get({ modelId: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(missing.kind).toBe('model-not-found');
    const empty = await h.desk.models.create({ name: 'Empty', start: { kind: 'empty' } });
    expect(empty.latest).toBeNull();
    const unsaved = await rejection(
      h.desk.models.assign({ profileId, modelId: empty.id, strategyIds: [FRESH] }),
    );
    expect(unsaved.message).toMatch(/“Empty” has no saved revision yet/);
  });
});
