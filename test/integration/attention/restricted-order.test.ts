import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox/demo-data';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

const CORE = DEMO_STRATEGY_IDS.coreEquity;

/**
 * A restricted order raises an attention signal (docs/attention.md), through the real desk, the
 * sandbox over loopback HTTP and SQLite: an execution overriding the demo's do-not-buy TSLA
 * buys TSLA; once its rebalance ends the queue shows the order with its evidence, and setting it
 * aside takes it off while that evidence holds.
 */
describe('the restricted-order signal', () => {
  let h: DeskHarness;
  let profileId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  const restricted = async () =>
    (await h.desk.attention.queue({ profileId, kind: 'restricted-order' })).signals;

  it('shows an order of an ended rebalance that broke a restriction, until set aside', async () => {
    expect(await restricted()).toEqual([]);
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: CORE,
      name: 'Buy Tesla anyway',
      start: 'target',
    });
    await h.desk.drafts.saveRows({
      draftId: draft.id,
      rows: [...draft.rows, { symbol: 'TSLA', weight: '5', locked: false }],
    });
    const preview = await h.desk.versions.prepareExecute({ draftId: draft.id });
    const { version } = await h.desk.versions.execute({
      draftId: draft.id,
      confirmation: {
        planKey: preview.planKey,
        acknowledgedStale: false,
        againAfter: null,
        restrictionOverride: { symbols: ['TSLA'], note: 'Committee approved' },
      },
    });
    // Nothing is found before the rebalance ends.
    expect(await restricted()).toEqual([]);
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );

    const signals = await restricted();
    expect(signals).toHaveLength(1);
    const [signal] = signals;
    expect(signal).toMatchObject({
      kind: 'restricted-order',
      strategyId: CORE,
      strategyName: 'Core Equity',
      symbol: 'TSLA',
      versionId: version.id,
    });
    expect(signal!.evidence).toMatch(
      new RegExp(
        `^TSLA: bought [\\d.]+ \\(order (filled|sent|pending)\\) by version ${version.id}, against do not buy \\(overridden when executed\\)$`,
      ),
    );
    const all = await h.desk.attention.queue({ profileId });
    expect(all.counts).toContainEqual({ kind: 'restricted-order', count: 1 });

    await h.desk.attention.dismiss({
      profileId,
      key: signal!.key,
      evidenceKey: signal!.evidenceKey,
      action: 'acknowledge',
      reason: 'Bought under the committee override',
    });
    expect(await restricted()).toEqual([]);
    expect((await h.desk.attention.queue({ profileId })).setAside).toBe(1);
  });
});
