import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { serviceMayHaveActed } from '../../../shared/errors';
import { DeskError } from '../../../shared/views';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { call, executePath, target, tokenFor, waitForEnd } from '../../support/sandbox-http';
import { syntheticVersion } from '../../support/e2e-versions-synthetic';
import { deleteShown } from '../../support/delete-version';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;

async function rejection(promise: Promise<unknown>): Promise<DeskError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeskError);
  return error as DeskError;
}

/**
 * The confirmation against the built-in sandbox over HTTP, a real SQLite file and the keychain:
 * what it says before money moves, and whether the service's answer agrees.
 */
describe('the execute confirmation tells the truth', () => {
  let h: DeskHarness;
  let sandboxProfile: string;
  const accepted = async (strategyId: string) =>
    (
      (await sandboxAdmin(h.sandbox()!.baseUrl, 'GET', '/sandbox/counters')) as {
        data: { executions_accepted: Record<string, number> };
      }
    ).data.executions_accepted[strategyId] ?? 0;
  const ended = (versionId: string) =>
    h.waitFor((e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended);
  const freshProfile = async (name: string) =>
    (
      await h.desk.profiles.create({
        name,
        baseUrl: h.sandbox()!.baseUrl,
        clientId: DEMO_CLIENTS.manager.client_id,
        secret: DEMO_CLIENTS.manager.client_secret,
      })
    ).id;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    sandboxProfile = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('unknown target that sells holdings: nothing guessed, refused without the acknowledgement', async () => {
    const profileId = await freshProfile('Fresh');
    const strategy = await h.desk.strategies.add({ profileId, strategyId: DIVIDEND });
    expect(strategy.currentTarget).toBeNull();
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: DIVIDEND,
      name: 'From the holdings',
      start: 'holdings',
    });
    const weights: Record<string, string> = { JNJ: '11', PG: '12', KO: '10' };
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r) => ({ ...r, weight: weights[r.symbol] ?? '0' })),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(preview.target).toEqual({ kind: 'unknown' });
    expect(preview.check).toBeNull();
    expect(preview.oldCash).toBeNull();
    expect(preview.profile).toMatchObject({ name: 'Fresh', baseUrl: h.sandbox()!.baseUrl });
    const sold = preview.positions.filter((p) => p.effect === 'sell-held');
    expect(sold.map((p) => p.symbol).sort()).toEqual(['ABBV', 'PEP', 'SCHD', 'VYM', 'XOM']);
    const held = new Map(strategy.holdings.map((h) => [h.symbol, h.quantity]));
    for (const p of sold) expect(p.heldQuantity).toBe(held.get(p.symbol));
    expect(preview.positions.filter((p) => p.effect === 'unchanged')).toEqual([]);
    // No action is guessed: each is uncertain, with the reason; the tick is asked for.
    expect(preview.doubts).toEqual(['unknown']);
    expect(preview.positions.every((p) => p.action === 'uncertain' && p.doubt === 'unknown')).toBe(
      true,
    );
    expect(preview.possiblyTargeted).toEqual([...held.keys()].sort());
    expect(preview.needsAcknowledgement).toBe(true);

    await deleteShown(h.desk, {
      profileId,
      strategyId: DIVIDEND,
      versionId: DEMO_VERSION_IDS.dividendGrowthScheduled,
    });
    const again = await h.desk.versions.prepareExecute({ draftId: draft.id });
    // Without the acknowledgement the desk itself refuses, before anything is journaled or sent.
    const before = await accepted(DIVIDEND);
    const refused = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: again.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(refused.kind).toBe('stale-not-acknowledged');
    expect(refused.message).toBe(
      'No executed version of this strategy is known here and it holds positions, so the ' +
        'service may act on a target this app does not know and sell them. Acknowledge that ' +
        'the predicted actions are uncertain before executing. Nothing was sent.',
    );
    expect(await accepted(DIVIDEND)).toBe(before);
    expect(h.desk.store.journal.listInFlight().filter((e) => e.profileId === profileId)).toEqual(
      [],
    );
    expect(
      (await h.desk.activity.list({ profileId, kinds: ['execution-sent'], offset: 0, limit: 1 }))
        .entries,
    ).toEqual([]);
    const { version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: { planKey: again.planKey, acknowledgedStale: true, againAfter: null },
    });
    expect(await accepted(DIVIDEND)).toBe(before + 1);
    const removed = version.positions.filter((p) => p.action === 'REMOVE').map((p) => p.symbol);
    expect(removed.sort()).toEqual(sold.map((p) => p.symbol).sort());
    const sells = version.orders.filter((o) => o.side === 'SELL');
    for (const p of sold)
      expect(sells.find((o) => o.symbol === p.symbol)?.order_quantity).toBe(p.heldQuantity);
    const outcome = await h.desk.versions.prediction({
      profileId,
      strategyId: DIVIDEND,
      versionId: version.id,
    });
    expect(outcome).toMatchObject({ targetState: 'unknown', uncertain: true, differences: [] });
    expect((await h.desk.drafts.get({ draftId: draft.id })).executedVersionId).toBe(version.id);
    // The activity entry records the doubt, the tick, and the rows in the confirmation's words.
    const sent = (
      await h.desk.activity.list({ profileId, kinds: ['execution-sent'], offset: 0, limit: 1 })
    ).entries[0]!;
    const detail = await h.desk.activity.get({ seq: sent.seq });
    const fact = (label: string) => detail.facts.find((f) => f.label === label)?.value;
    expect(fact('Predicted actions')).toBe(
      'Uncertain: no executed version of this strategy is known here',
    );
    expect(fact('Stale or unknown target acknowledged')).toBe('Yes');
    const shown = detail.tables.find((t) => t.title === 'Prediction shown')!;
    expect(shown.columns).toContain('Last known weight');
    const words = shown.rows.map((r) => r[shown.columns.indexOf('Shown as')]);
    expect(words.filter((w) => w === 'sells all · action uncertain')).toHaveLength(5);
    expect(words.filter((w) => w === 'uncertain')).toHaveLength(3);
    await ended(version.id);
  });

  it('stale target: a change from another profile shows in the holdings and must be acknowledged', async () => {
    const known = await h.desk.strategies.get({ profileId: sandboxProfile, strategyId: CORE });
    expect(known.currentTarget?.origin).toBe('imported');
    expect(known.targetCheck?.fits).toBe(true);

    // Another profile keeps two symbols and sells the other five.
    const other = await freshProfile('Other desk');
    await h.desk.strategies.add({ profileId: other, strategyId: CORE });
    const elsewhere = await h.desk.drafts.create({
      profileId: other,
      strategyId: CORE,
      name: 'Elsewhere',
      start: 'holdings',
    });
    await h.desk.drafts.saveRows({
      draftId: elsewhere.id,
      rows: elsewhere.rows.map((r) => ({
        ...r,
        weight: r.symbol === 'SPY' ? '40' : r.symbol === 'AAPL' ? '30' : '0',
      })),
    });
    const theirs = (await h.desk.versions.execute({ draftId: elsewhere.id })).version;
    await ended(theirs.id);

    const refreshed = await h.desk.strategies.refresh({
      profileId: sandboxProfile,
      strategyId: CORE,
    });
    expect(refreshed.currentTarget?.versionId).toBe(DEMO_VERSION_IDS.coreEquityExecuted);
    expect(refreshed.targetCheck?.fits).toBe(false);
    const gone = ['AMZN', 'BRK.B', 'JPM', 'MSFT', 'NVDA'];
    expect(refreshed.targetCheck?.targetNotHeld).toEqual(gone);

    const draft = await h.desk.drafts.create({
      profileId: sandboxProfile,
      strategyId: CORE,
      name: 'One weight',
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r) => (r.symbol === 'JPM' ? { ...r, weight: '7' } : r)),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(preview.target.kind).toBe('known');
    expect(preview.check).toMatchObject({ fits: false, targetNotHeld: gone });
    const before = await accepted(CORE);
    const refused = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(refused.kind).toBe('stale-not-acknowledged');
    expect(await accepted(CORE)).toBe(before);

    const { version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
    });
    const outcome = (await h.desk.versions.prediction({
      profileId: sandboxProfile,
      strategyId: CORE,
      versionId: version.id,
    }))!;
    expect(outcome.targetState).toBe('stale');
    expect(outcome.uncertain).toBe(true);
    // The service bought back what the other profile sold: each one named, with both sides.
    const added = version.positions.filter((p) => p.action === 'ADD').map((p) => p.symbol);
    expect(added.sort()).toEqual(gone);
    // SPY and AAPL differ too: the other profile raised them, so the service changes them back.
    expect(outcome.differences.map((d) => d.symbol).sort()).toEqual(
      [...gone, 'AAPL', 'SPY'].sort(),
    );
    // No action was predicted on the stale target: where the service's differs is expected.
    expect(outcome.differences.find((d) => d.symbol === 'SPY')).toEqual({
      symbol: 'SPY',
      predicted: { action: 'uncertain', oldWeight: '20' },
      service: { action: 'CHANGE', oldWeight: '40', weight: '20' },
      expected: true,
    });
    expect(outcome.differences.every((d) => d.expected)).toBe(true);
    await ended(version.id);
  });

  it('the known target fits after its own rebalance; a changed draft or a second run needs a new word', async () => {
    const draft = await h.desk.drafts.create({
      profileId: sandboxProfile,
      strategyId: CORE,
      name: 'After',
      start: 'target',
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(preview.check).toMatchObject({ fits: true });
    expect(preview.changesNothing).toBe(true);
    expect(preview.positions.every((p) => p.effect === 'unchanged')).toBe(true);

    const rows = draft.rows.map((r, i) => (i === 0 ? { ...r, weight: '1' } : r));
    await h.desk.drafts.saveRows({ draftId: draft.id, rows });
    const before = await accepted(CORE);
    const outdated = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(outdated.kind).toBe('confirmation-outdated');
    expect(await accepted(CORE)).toBe(before);

    const fresh = await h.desk.versions.prepareExecute({ draftId: draft.id });
    const first = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: { planKey: fresh.planKey, acknowledgedStale: false, againAfter: null },
    });
    const outcome = await h.desk.versions.prediction({
      profileId: sandboxProfile,
      strategyId: CORE,
      versionId: first.version.id,
    });
    expect(outcome).toMatchObject({ targetState: 'known', differences: [] });
    await ended(first.version.id);

    const second = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(second.earlierVersionId).toBe(first.version.id);
    expect(second.check).toMatchObject({ fits: true });
    const twice = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: second.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(twice.kind).toBe('executed-before');
    expect(twice.message).toContain(first.version.id);
    const { version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: {
        planKey: second.planKey,
        acknowledgedStale: false,
        againAfter: first.version.id,
      },
    });
    expect(version.id).not.toBe(first.version.id);
    await ended(version.id);
  });

  it('a change made elsewhere while the confirmation is open sends nothing and asks again', async () => {
    const draft = await h.desk.drafts.create({
      profileId: sandboxProfile,
      strategyId: CORE,
      name: 'Open dialog',
      start: 'target',
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(preview.check).toMatchObject({ fits: true });

    const base = h.sandbox()!.baseUrl;
    const token = await tokenFor(base, 'manager');
    const answer = await call(base, 'POST', executePath(CORE), {
      token,
      body: target(...preview.positions.map((p): [string, string] => [p.symbol, p.weight])),
    });
    expect(answer.status).toBe(202);
    await waitForEnd(base, token, answer.headers.location as string);
    const before = await accepted(CORE);

    const outdated = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(outdated.kind).toBe('confirmation-outdated');
    expect(await accepted(CORE)).toBe(before);
    const again = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(again.check).toMatchObject({ fits: false, updatedAfter: true });
  });

  it('an unclear outcome retried with the same key is still compared with its prediction', async () => {
    const draft = await h.desk.drafts.create({
      profileId: sandboxProfile,
      strategyId: CORE,
      name: 'Unclear',
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: draft.rows.map((r, i) => (i === 0 ? { ...r, weight: '2' } : r)),
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    await sandboxAdmin(h.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      drop_after_commit_next: 1,
    });
    const unclear = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
      }),
    );
    expect(serviceMayHaveActed(unclear)).toBe(true);
    const [entry] = await h.desk.versions.journal({ profileId: sandboxProfile });
    const { version } = await h.desk.versions.retryExecution({ journalId: entry!.id });
    const outcome = await h.desk.versions.prediction({
      profileId: sandboxProfile,
      strategyId: CORE,
      versionId: version.id,
    });
    expect(outcome?.versionId).toBe(version.id);
    expect((await h.desk.drafts.get({ draftId: draft.id })).executedVersionId).toBe(version.id);
    await ended(version.id);
  });

  it('a known target the service no longer knows: the stored copy, said to be unchecked', async () => {
    const profileId = await freshProfile('Forgotten');
    const FRESH = DEMO_STRATEGY_IDS.freshStart;
    await h.desk.strategies.add({ profileId, strategyId: FRESH });
    // Imported here once, unknown to this service now (deleted elsewhere, a sandbox started afresh).
    const forgotten = syntheticVersion(FRESH, 3);
    h.desk.store.versions.upsert(profileId, forgotten, { origin: 'imported' });
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: FRESH,
      name: 'Anyway',
      start: 'target',
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    expect(preview.target).toMatchObject({ kind: 'known', versionId: forgotten.id });
    expect(preview.targetUnconfirmed).toBe(true);

    // Executing on the stored copy takes the manager's word, asked again of the desk itself.
    const before = await accepted(FRESH);
    const refused = await rejection(
      h.desk.versions.execute({
        draftId: draft.id,
        confirmation: { planKey: preview.planKey, acknowledgedStale: false, againAfter: null },
      }),
    );
    expect(refused.kind).toBe('stale-not-acknowledged');
    expect(await accepted(FRESH)).toBe(before);
    expect(h.desk.store.journal.listInFlight().filter((e) => e.profileId === profileId)).toEqual(
      [],
    );
    const { version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
    });
    expect(await accepted(FRESH)).toBe(before + 1);
    // Its record says the target was this app's copy, unknown to the service, and acknowledged.
    const sent = (
      await h.desk.activity.list({
        profileId,
        kinds: ['execution-sent'],
        offset: 0,
        limit: 1,
      })
    ).entries[0]!;
    const facts = (await h.desk.activity.get({ seq: sent.seq })).facts;
    const fact = (label: string) => facts.find((f) => f.label === label)?.value;
    expect(fact('Known target')).toMatch(
      /^Stale: .*; the service no longer knew this version, so this app's copy was used$/,
    );
    expect(fact('Target version')).toBe(forgotten.id);
    expect(fact('Stale or unknown target acknowledged')).toBe('Yes');
    await ended(version.id);

    // A version the service does know is checked as before.
    const known = await h.desk.strategies.get({ profileId: sandboxProfile, strategyId: CORE });
    expect(known.currentTarget).not.toBeNull();
    const other = await h.desk.drafts.create({
      profileId: sandboxProfile,
      strategyId: CORE,
      name: 'Checked',
      start: 'target',
    });
    expect((await h.desk.versions.prepareExecute({ draftId: other.id })).targetUnconfirmed).toBe(
      false,
    );
  });
});
