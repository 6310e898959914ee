import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkChains } from '../../../../electron/core/activity/verify';
import { storeRead, storeReadTogether } from '../../../../electron/core/strategies/sync';
import { openTemp, seedStrategy, strategyResponse, ts } from '../../../support/store-fixtures';

describe('strategies repository', () => {
  let t: ReturnType<typeof openTemp>;
  beforeEach(() => {
    t = openTemp();
  });
  afterEach(() => t.close());

  it('stores a strategy with its holdings, decimals exactly as received', () => {
    const { store } = t;
    const { profileId, strategy } = seedStrategy(store);
    const stored = store.strategies.get(profileId, strategy.id)!;
    const { positions, ...fields } = strategy;
    expect(stored).toMatchObject(fields);
    expect(stored.fee_percent).toBe('0.250000');
    expect(stored.positions!.map(({ synced_at: _, ...h }) => h)).toEqual(positions);
    expect(stored.positions!.map((h) => h.quantity)).toEqual(['12.500000', '0.000001']);
    expect(stored.synced_at).toBe(stored.added_at);
  });

  it('replaces the holdings on a sync, keeps them when the response has none', () => {
    const { store } = t;
    const { profileId, strategy } = seedStrategy(store);
    const addedAt = store.strategies.get(profileId, strategy.id)!.added_at;
    const sold = strategyResponse({
      id: strategy.id,
      is_liquidate_only: true,
      liquidate_only_reason: 'ORDER_FAILED',
      updated_at: ts(30),
      positions: [
        {
          id: randomUUID(),
          symbol: 'MSFT',
          quantity: '98',
          inserted_at: ts(30),
          updated_at: ts(30),
        },
      ],
    });
    store.strategies.upsert(profileId, sold, { syncedAt: '2025-02-01T00:00:00.000Z' });
    const after = store.strategies.get(profileId, strategy.id)!;
    expect(after).toMatchObject({
      is_liquidate_only: true,
      liquidate_only_reason: 'ORDER_FAILED',
      synced_at: '2025-02-01T00:00:00.000Z',
      added_at: addedAt,
    });
    expect(after.positions!.map((h) => [h.symbol, h.quantity])).toEqual([['MSFT', '98']]);

    const { positions: _, ...withoutPositions } = sold;
    store.strategies.upsert(profileId, { ...withoutPositions, name: 'Renamed' });
    expect(store.strategies.get(profileId, strategy.id)!.name).toBe('Renamed');
    expect(store.strategies.holdings(profileId, strategy.id)).toHaveLength(1);
  });

  it('rolls the whole sync back when a holding cannot be stored', () => {
    const { store } = t;
    const { profileId, strategy } = seedStrategy(store);
    const dup = randomUUID();
    const bad = strategyResponse({
      id: strategy.id,
      name: 'Should not stick',
      positions: [
        { id: dup, symbol: 'A', quantity: '1', inserted_at: ts(0), updated_at: ts(0) },
        { id: dup, symbol: 'B', quantity: '2', inserted_at: ts(0), updated_at: ts(0) },
      ],
    });
    expect(() => store.strategies.upsert(profileId, bad)).toThrow(/UNIQUE/);
    const after = store.strategies.get(profileId, strategy.id)!;
    expect(after.name).toBe('Core Equity');
    expect(after.positions!.map((h) => h.symbol)).toEqual(['AAPL', 'BRK.B']);
  });

  it('lists by name and removes a strategy with its holdings', () => {
    const { store } = t;
    const { profileId, strategy } = seedStrategy(store);
    const second = strategyResponse({ name: 'alpha' });
    store.strategies.upsert(profileId, second);
    expect(store.strategies.list(profileId).map((s) => s.name)).toEqual(['alpha', 'Core Equity']);
    expect(store.strategies.list(profileId)[0]!.positions).toBeUndefined();
    expect(store.strategies.remove(profileId, strategy.id)).toBe(true);
    expect(store.strategies.remove(profileId, strategy.id)).toBe(false);
    expect(store.strategies.holdings(profileId, strategy.id)).toEqual([]);
    expect(store.strategies.list(profileId).map((s) => s.id)).toEqual([second.id]);
  });

  it('returns the strategies read together that were new here, each stored whole', () => {
    const { store } = t;
    const { profileId, strategy: held } = seedStrategy(store);
    const fresh = [strategyResponse({ name: 'Bonds' }), strategyResponse({ name: 'Gold' })];
    const cleared: string[] = [];
    const added = store.transaction(() =>
      store.strategies.recordReadTogether(
        profileId,
        [{ ...held, name: 'Core Equity II' }, ...fresh],
        {
          syncedAt: '2025-03-01T00:00:00.000Z',
          each: (s) => cleared.push(s.id),
        },
      ),
    );
    expect(added.map((s) => s.id)).toEqual(fresh.map((s) => s.id));
    expect(cleared).toEqual([held.id, ...fresh.map((s) => s.id)]);
    // The repository returns rows: no activity entry is its to write.
    expect([...store.activity.iterate({ profileId })]).toEqual([]);
    expect(store.strategies.recordRead(profileId, fresh[0]!, { syncedAt: ts(41) })).toBe(false);
    expect(store.strategies.recordRead(profileId, strategyResponse(), { syncedAt: ts(41) })).toBe(
      true,
    );
  });

  it('a read stored by the strategies domain: each new one with its strategy-added entry', () => {
    const { store } = t;
    const { profileId, strategy: held } = seedStrategy(store);
    const fresh = [strategyResponse({ name: 'Bonds' }), strategyResponse({ name: 'Gold' })];
    expect(
      storeReadTogether(
        store,
        profileId,
        [{ ...held, name: 'Core Equity II' }, ...fresh],
        '2025-03-01T00:00:00.000Z',
      ),
    ).toBe(true);
    expect(store.strategies.get(profileId, held.id)!.name).toBe('Core Equity II');
    for (const s of fresh) {
      const stored = store.strategies.get(profileId, s.id)!;
      expect(stored.synced_at).toBe('2025-03-01T00:00:00.000Z');
      expect(stored.positions!.map((h) => h.quantity)).toEqual(s.positions!.map((h) => h.quantity));
    }
    const entries = [...store.activity.iterate({ profileId })];
    expect(entries.map((e) => [e.kind, e.strategy_id])).toEqual(
      fresh.map((s) => ['strategy-added', s.id]),
    );
    expect(JSON.parse(entries[1]!.payload)).toMatchObject({
      strategyName: 'Gold',
      holdings: fresh[1]!.positions!.map((h) => ({ symbol: h.symbol, quantity: h.quantity })),
    });
    expect(checkChains(store.activity.iterateChains(), 'now').ok).toBe(true);

    // Only strategies held already: stored, no entry (nothing to wait on the disk for).
    expect(storeReadTogether(store, profileId, fresh, ts(40))).toBe(false);
    expect([...store.activity.iterate({ profileId })]).toHaveLength(2);
    // One read: its entry the first time only.
    const single = strategyResponse({ name: 'Silver' });
    storeRead(store, profileId, single, ts(42));
    storeRead(store, profileId, { ...single, name: 'Silver II' }, ts(43));
    const kinds = [...store.activity.iterate({ profileId })].map((e) => [e.kind, e.strategy_id]);
    expect(kinds.at(-1)).toEqual(['strategy-added', single.id]);
    expect(kinds).toHaveLength(3);
    expect(store.strategies.nameOf(profileId, single.id)).toBe('Silver II');
  });

  it('rolls the whole group back when one strategy of it cannot be stored', () => {
    const { store } = t;
    const { profileId, strategy: held } = seedStrategy(store);
    const good = strategyResponse({ name: 'Bonds' });
    const dup = randomUUID();
    const bad = strategyResponse({
      name: 'Broken',
      positions: [
        { id: dup, symbol: 'A', quantity: '1', inserted_at: ts(0), updated_at: ts(0) },
        { id: dup, symbol: 'B', quantity: '2', inserted_at: ts(0), updated_at: ts(0) },
      ],
    });
    expect(() =>
      storeReadTogether(store, profileId, [{ ...held, name: 'Renamed' }, good, bad], ts(50)),
    ).toThrow(/UNIQUE/);
    // Nothing of the group stuck: not the refresh of the one held, not the one added before.
    expect(store.strategies.get(profileId, held.id)!.name).toBe('Core Equity');
    expect(store.strategies.get(profileId, good.id)).toBeNull();
    expect(store.strategies.get(profileId, bad.id)).toBeNull();
    expect([...store.activity.iterate({ profileId })]).toEqual([]);
  });
});
