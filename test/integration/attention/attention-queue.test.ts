import { afterEach, describe, expect, it } from 'vitest';
import type { AttentionSignal } from '../../../shared/attention/contract';
import { Decimal } from '../../../shared/decimal';
import { DEMO_STRATEGY_IDS } from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';

// The attention queue through the real parts: the sandbox over HTTP simulates a trade outside
// the app, a split and a partial fill; the desk follows the rebalance, stores the snapshot at its
// end (the one strategy read), and the queue is computed in SQL from what was stored.

const CORE = DEMO_STRATEGY_IDS.coreEquity;
let h: DeskHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Executes the strategy's known target again and waits until its end is settled. */
async function rebalance(harness: DeskHarness, profileId: string): Promise<string> {
  const desk = harness.desk;
  const draft = await desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'again',
    start: 'target',
  });
  const preview = await desk.versions.prepareExecute({ draftId: draft.id });
  const { version } = await desk.versions.execute({
    draftId: draft.id,
    confirmation: { planKey: preview.planKey, acknowledgedStale: true, againAfter: null },
  });
  await harness.waitFor(
    (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
  );
  return version.id;
}

const ofCore = (signals: readonly AttentionSignal[], ...kinds: AttentionSignal['kind'][]) =>
  signals
    .filter((s) => s.strategyId === CORE && kinds.includes(s.kind))
    .map((s) => ({ kind: s.kind, symbol: s.symbol, before: s.before, now: s.now }));

describe('the attention queue', () => {
  it('compares the holdings with the snapshot at the rebalance end: an outside trade, a split, a new symbol', async () => {
    h = await openDeskHarness({ stepMs: 20 });
    const { desk } = h;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const url = h.sandbox()!.baseUrl;
    // Imported versions ended before the desk followed them: nothing to compare with yet.
    expect(desk.store.attention.snapshotOf(profileId, CORE)).toBeUndefined();

    const versionId = await rebalance(h, profileId);
    const stored = (await desk.strategies.get({ profileId, strategyId: CORE })).holdings;
    const snapshot = desk.store.attention.snapshotOf(profileId, CORE)!;
    expect(snapshot.version_id).toBe(versionId);
    expect(snapshot.holdings).toEqual(
      stored
        .map((s) => ({ symbol: s.symbol, quantity: s.quantity }))
        .sort((a, b) => (a.symbol < b.symbol ? -1 : 1)),
    );
    const quiet = await desk.attention.queue({ profileId });
    expect(ofCore(quiet.signals, 'quantity-changed', 'newly-held', 'no-longer-held')).toEqual([]);

    const held = new Map(stored.map((s) => [s.symbol, s.quantity]));
    const admin = (path: string, body: unknown) =>
      sandboxAdmin(url, 'POST', `/sandbox/strategies/${CORE}/${path}`, body);
    await admin('outside-trades', { symbol: 'AAPL', side: 'SELL', quantity: '1.5' });
    await admin('splits', { symbol: 'MSFT', ratio: '2' });
    await admin('outside-trades', { symbol: 'TLT', side: 'BUY', quantity: '3' });
    // The queue reads what the app stored: the change shows once the strategy is read again.
    expect(ofCore((await desk.attention.queue({ profileId })).signals, 'quantity-changed')).toEqual(
      [],
    );
    await desk.strategies.refresh({ profileId, strategyId: CORE });

    const queue = await desk.attention.queue({ profileId });
    expect(ofCore(queue.signals, 'quantity-changed', 'newly-held', 'held-not-targeted')).toEqual([
      {
        kind: 'quantity-changed',
        symbol: 'AAPL',
        before: held.get('AAPL'),
        now: new Decimal(held.get('AAPL')!).minus('1.5').toFixed(),
      },
      {
        kind: 'quantity-changed',
        symbol: 'MSFT',
        before: held.get('MSFT'),
        now: new Decimal(held.get('MSFT')!).times(2).toFixed(),
      },
      { kind: 'newly-held', symbol: 'TLT', before: null, now: '3' },
      { kind: 'held-not-targeted', symbol: 'TLT', before: null, now: '3' },
    ]);
    const split = queue.signals.find((s) => s.symbol === 'MSFT')!;
    expect(split.evidence).toContain('×2');
    // Never a price, a value or a weight drift: the evidence is quantities only.
    for (const s of queue.signals) expect(s.evidence).not.toMatch(/\$|value|drift/i);
    // A total order: by what to act on first, then name, id, symbol.
    const again = await desk.attention.queue({ profileId });
    expect(again.signals).toEqual(queue.signals);
  });

  it('sets a signal aside with a reason in the activity log; it comes back when its evidence changes', async () => {
    h = await openDeskHarness({ stepMs: 20 });
    const { desk } = h;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const url = h.sandbox()!.baseUrl;
    await rebalance(h, profileId);
    const trade = (quantity: string) =>
      sandboxAdmin(url, 'POST', `/sandbox/strategies/${CORE}/outside-trades`, {
        symbol: 'AAPL',
        side: 'SELL',
        quantity,
      });
    await trade('1');
    await desk.strategies.refresh({ profileId, strategyId: CORE });
    const shown = (await desk.attention.queue({ profileId })).signals.find(
      (s) => s.strategyId === CORE && s.kind === 'quantity-changed',
    )!;
    await expect(
      desk.attention.dismiss({
        profileId,
        key: shown.key,
        evidenceKey: shown.evidenceKey,
        action: 'acknowledge',
        reason: '   ',
      }),
    ).rejects.toMatchObject({ kind: 'invalid-input' });
    await desk.attention.dismiss({
      profileId,
      key: shown.key,
      evidenceKey: shown.evidenceKey,
      action: 'acknowledge',
      reason: 'Client sold one share to cover a fee',
    });
    const after = await desk.attention.queue({ profileId });
    expect(after.signals.find((s) => s.key === shown.key)).toBeUndefined();
    expect(after.setAside).toBe(1);
    const log = await desk.activity.list({
      profileId,
      kinds: ['attention-set-aside'],
      offset: 0,
      limit: 10,
    });
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]!.summary).toContain('Client sold one share to cover a fee');

    // Another trade moves the evidence: the signal is back, with the new quantity.
    await trade('1');
    await desk.strategies.refresh({ profileId, strategyId: CORE });
    const back = (await desk.attention.queue({ profileId })).signals.find(
      (s) => s.key === shown.key,
    )!;
    expect(back.now).toBe(new Decimal(shown.now!).minus(1).toFixed());
    expect(back.before).toBe(shown.before);
    // Snoozed, it stays away while the evidence holds.
    await desk.attention.dismiss({
      profileId,
      key: back.key,
      evidenceKey: back.evidenceKey,
      action: 'snooze',
      days: 3,
      reason: 'Waiting for the client',
    });
    expect((await desk.attention.queue({ profileId })).signals.map((s) => s.key)).not.toContain(
      back.key,
    );
  });

  it('shows what the last rebalance left unfilled (a partial fill), and a new end renews the snapshot', async () => {
    h = await openDeskHarness({ stepMs: 20 });
    const { desk } = h;
    const profileId = (await desk.profiles.useSandbox({})).id;
    const url = h.sandbox()!.baseUrl;
    await rebalance(h, profileId);
    await sandboxAdmin(url, 'POST', `/sandbox/strategies/${CORE}/outside-trades`, {
      symbol: 'AAPL',
      side: 'SELL',
      quantity: '4',
    });
    await desk.strategies.refresh({ profileId, strategyId: CORE });
    expect(
      ofCore((await desk.attention.queue({ profileId })).signals, 'quantity-changed'),
    ).toHaveLength(1);
    // The rebalance buys AAPL back, in a thin market: half of it fills.
    await sandboxAdmin(url, 'PUT', '/sandbox/faults', { partial_fills: { AAPL: '0.5' } });
    const versionId = await rebalance(h, profileId);
    const detail = await desk.versions.get({ profileId, strategyId: CORE, versionId });
    const order = detail.orders.find((o) => o.symbol === 'AAPL')!;
    const queue = await desk.attention.queue({ profileId });
    expect(ofCore(queue.signals, 'unfilled')).toEqual([
      {
        kind: 'unfilled',
        symbol: 'AAPL',
        before: order.order_quantity,
        now: new Decimal(order.order_quantity).times('0.5').toFixed(),
      },
    ]);
    // The failed rebalance is in the same queue, before what it left unfilled.
    const kinds = queue.signals.filter((s) => s.strategyId === CORE).map((s) => s.kind);
    expect(kinds.indexOf('failed-unacknowledged')).toBeLessThan(kinds.indexOf('unfilled'));
    // The snapshot is the new end's: the outside trade is no longer a change since then.
    expect(ofCore(queue.signals, 'quantity-changed')).toEqual([]);
    expect(desk.store.attention.snapshotOf(profileId, CORE)!.version_id).toBe(versionId);
  });
});
