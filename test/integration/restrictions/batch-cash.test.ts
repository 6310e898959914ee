import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { DeskError } from '../../../shared/errors';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { executeToEnd } from '../../support/batches';

const CORE = DEMO_STRATEGY_IDS.coreEquity;
const DIVIDEND = DEMO_STRATEGY_IDS.dividendGrowth;

/**
 * A batch review through the real desk and the built-in sandbox over HTTP: "apply the model with
 * target cash X %" scales the model's rows for every strategy, each line saying what changed,
 * and a strategy whose rows break a restriction is excluded, saying which and why.
 */
describe('a batch review with target cash and restrictions', () => {
  let h: DeskHarness;
  let profileId: string;
  let revisionId: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 5 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    const model = await h.desk.models.create({
      name: 'Core model',
      start: { kind: 'strategy', profileId, strategyId: CORE },
    });
    revisionId = model.latest!.id;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('applies the model with target cash X % for these strategies; each line says what changed; the versions leave X % cash', async () => {
    const model = await h.desk.models.revision({ revisionId });
    const modelCash = new Decimal(100)
      .minus(model.rows.reduce((s, r) => s.plus(r.weight), new Decimal(0)))
      .toFixed();
    expect(modelCash).toBe('12');
    const refused = await h.desk.batches
      .review({ profileId, revisionId, strategyIds: [CORE], targetCash: '1' })
      .catch((e: unknown) => e as DeskError);
    expect(refused).toBeInstanceOf(DeskError);
    expect((refused as DeskError).message).toMatch(/Target cash must be from 2 to 100 %/);

    const batch = await h.desk.batches.review({
      profileId,
      revisionId,
      strategyIds: [CORE, DIVIDEND],
      targetCash: '20',
    });
    for (const item of batch.items) {
      expect(item.state).toBe('ready');
      expect(item.review!.newCash).toBe('20');
      expect(item.review!.targetCash).toMatchObject({ cashBefore: '12', cashAfter: '20' });
      const aapl = item.review!.targetCash!.changes.find((c) => c.symbol === 'AAPL');
      // 15 of 88 scaled to 80: 13.636363 (rounded down to 6 places, the remainder on SPY).
      expect(aapl).toEqual({ symbol: 'AAPL', from: '15', to: '13.636363' });
    }
    // Dividend Growth has a version scheduled in the way at the service: sent, Core Equity alone.
    const done = await executeToEnd(h, batch, { unticked: [DIVIDEND] });
    for (const item of done.items.filter((i) => i.strategyId === CORE)) {
      expect([item.state, item.reason]).toEqual(['accepted', null]);
      const version = await h.desk.versions.get({
        profileId,
        strategyId: item.strategyId,
        versionId: item.versionId!,
      });
      const sent = version.positions.reduce((s, p) => s.plus(p.weight), new Decimal(0));
      expect(new Decimal(100).minus(sent).toFixed()).toBe('20');
    }
  });

  it('excludes a strategy whose rows break a restriction, naming the symbol and the rule', async () => {
    await h.desk.restrictions.add({
      profileId,
      kind: 'hold',
      symbol: 'MSFT',
      scope: { type: 'strategy', strategyId: CORE },
      reason: 'Client asked',
      setBy: 'ana',
    });
    const batch = await h.desk.batches.review({ profileId, revisionId, strategyIds: [CORE] });
    const [core] = batch.items;
    expect(core).toMatchObject({ state: 'excluded', exclusion: 'restricted' });
    expect(core!.reason).toMatch(/^It breaks a restriction/);
    expect(core!.reason).toMatch(
      /Possible: MSFT is held and gets [\d.]+ %.*hold \(do not trade\) \(Client asked, set by ana\)/,
    );
  });
});
