import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DraftRow } from '../../../../electron/core/store';
import { openTemp, seedStrategy } from '../../../support/store-fixtures';

const rows = (n: number, tag = ''): DraftRow[] =>
  Array.from({ length: n }, (_, i) => ({
    symbol: `S${i}${tag}`,
    weight: (i % 7 === 0 ? '0.000001' : `${i % 98}.500000`) as string,
    locked: i % 5 === 0,
  }));

describe('drafts repository', () => {
  let t: ReturnType<typeof openTemp>;
  let profileId: string;
  let strategyId: string;
  let clock: number;
  beforeEach(() => {
    clock = 0;
    // A clock that moves, so updated_at ordering is deterministic.
    t = openTemp({ now: () => new Date(Date.UTC(2025, 0, 1, 0, 0, clock++)).toISOString() });
    ({ profileId, strategyId } = seedStrategy(t.store));
  });
  afterEach(() => t.close());

  it('creates a draft with rows and reads them back in order, exactly as typed', () => {
    const typed: DraftRow[] = [
      { symbol: 'brk.b ', weight: '12.500000', locked: true },
      { symbol: 'AAPL', weight: 'abc', locked: false },
      { symbol: '', weight: '98', locked: false },
    ];
    const draft = t.store.drafts.create({
      profileId,
      strategyId,
      name: 'Rebalance Q1',
      rows: typed,
    });
    expect(draft).toMatchObject({ name: 'Rebalance Q1', rowCount: 3, profileId, strategyId });
    expect(t.store.drafts.get(draft.id)!.rows).toEqual(typed);
    expect(t.store.drafts.create({ profileId, strategyId, name: 'Empty' }).rows).toEqual([]);
  });

  it('saves rows atomically, replacing the previous ones, and moves updated_at', () => {
    const draft = t.store.drafts.create({ profileId, strategyId, name: 'D', rows: rows(1000) });
    expect(t.store.drafts.saveRows(draft.id, rows(3, 'x'))).toBe(true);
    const saved = t.store.drafts.get(draft.id)!;
    expect(saved.rows).toEqual(rows(3, 'x'));
    expect(saved.updatedAt > draft.updatedAt).toBe(true);
    expect(t.store.drafts.saveRows('missing', rows(2))).toBe(false);

    // A failing save leaves the previous rows whole.
    const bad = [...rows(2), { symbol: 'X', weight: null as unknown as string, locked: false }];
    expect(() => t.store.drafts.saveRows(draft.id, bad)).toThrow(/NOT NULL/);
    expect(t.store.drafts.get(draft.id)!.rows).toEqual(rows(3, 'x'));
  });

  it('lists the strategy drafts with row counts, most recently edited first; renames and deletes', () => {
    const a = t.store.drafts.create({ profileId, strategyId, name: 'A', rows: rows(4) });
    const b = t.store.drafts.create({ profileId, strategyId, name: 'B', rows: rows(2) });
    expect(
      t.store.drafts.listForStrategy(profileId, strategyId).map((d) => [d.name, d.rowCount]),
    ).toEqual([
      ['B', 2],
      ['A', 4],
    ]);
    expect(t.store.drafts.rename(a.id, 'A renamed')).toBe(true);
    expect(t.store.drafts.rename('missing', 'x')).toBe(false);
    const listed = t.store.drafts.listForStrategy(profileId, strategyId);
    expect(listed.map((d) => d.name)).toEqual(['A renamed', 'B']);
    expect(listed[0]!.updatedAt > a.updatedAt).toBe(true);

    expect(t.store.drafts.delete(b.id)).toBe(true);
    expect(t.store.drafts.delete(b.id)).toBe(false);
    expect(t.store.drafts.get(b.id)).toBeNull();
    expect(t.store.drafts.listForStrategy(profileId, strategyId).map((d) => d.id)).toEqual([a.id]);
  });

  it('removing the strategy removes its drafts', () => {
    const d = t.store.drafts.create({ profileId, strategyId, name: 'D', rows: rows(2) });
    t.store.strategies.remove(profileId, strategyId);
    expect(t.store.drafts.get(d.id)).toBeNull();
  });
});
