import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import { seedStrategy, tempFolder } from '../../../../support/store-fixtures';

const RULE = {
  kind: 'hold' as const,
  symbol: 'AAPL',
  scope: { type: 'profile' as const },
  reason: 'Client request',
  setBy: 'ana',
  from: '2026-01-01T00:00:00.000Z',
  until: null,
};

describe('migration 014-restrictions', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 12 to 14: rules kept by profile, ended not deleted, checked by the schema', () => {
    expect(MIGRATIONS.find((m) => m.version === 14)?.name).toBe('restrictions');
    const path = folder.file();
    const old = openStore(path, { targetVersion: 12 });
    const { profileId, strategyId } = seedStrategy(old);
    old.close();

    const store = openStore(path, { now: () => '2026-06-01T00:00:00.000Z' });
    expect(store.schemaVersion).toBeGreaterThanOrEqual(14);
    const [rule] = store.restrictions.add(profileId, [
      { ...RULE, id: '11111111-1111-4111-8111-111111111111' },
    ]);
    expect(rule).toMatchObject({ symbol: 'AAPL', scope: { type: 'profile' }, endedAt: null });
    store.restrictions.add(profileId, [
      {
        ...RULE,
        id: '22222222-2222-4222-8222-222222222222',
        kind: 'do-not-buy',
        symbol: 'TSLA',
        scope: { type: 'strategy', strategyId },
        from: '2026-09-01T00:00:00.000Z',
      },
    ]);
    // Ended now: its window closes now; one not begun closes on its start (never in force).
    expect(store.restrictions.end(profileId, rule!.id, '2026-06-01T00:00:00.000Z')).toBe(true);
    expect(store.restrictions.end(profileId, rule!.id, '2026-06-02T00:00:00.000Z')).toBe(false);
    expect(
      store.restrictions.end(
        profileId,
        '22222222-2222-4222-8222-222222222222',
        '2026-06-01T00:00:00.000Z',
      ),
    ).toBe(true);
    expect(store.restrictions.list(profileId).map((r) => [r.symbol, r.from, r.until])).toEqual([
      ['AAPL', '2026-01-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'],
      ['TSLA', '2026-09-01T00:00:00.000Z', '2026-09-01T00:00:00.000Z'],
    ]);
    expect(store.restrictions.notOverBy(profileId, '2026-07-01T00:00:00.000Z')).toHaveLength(1);
    store.close();

    const db = new Database(path);
    const insert = (values: Record<string, string | null>) =>
      db
        .prepare(
          `INSERT INTO restrictions (id, profile_id, kind, symbol, scope_type, scope_value, reason,
             set_by, valid_from, valid_until, created_at)
           VALUES (@id, @profileId, @kind, @symbol, @scopeType, @scopeValue, 'r', 'ana',
             '2026-01-01T00:00:00.000Z', @until, '2026-01-01T00:00:00.000Z')`,
        )
        .run({
          id: 'x',
          profileId,
          kind: 'hold',
          symbol: 'AAPL',
          scopeType: 'profile',
          scopeValue: null,
          until: null,
          ...values,
        });
    expect(() => insert({ id: 'a', kind: 'sell-only' })).toThrow(/CHECK constraint/);
    expect(() => insert({ id: 'b', symbol: 'aapl' })).toThrow(/CHECK constraint/);
    expect(() => insert({ id: 'c', scopeType: 'tag' })).toThrow(/CHECK constraint/);
    expect(() => insert({ id: 'd', scopeValue: 'income' })).toThrow(/CHECK constraint/);
    expect(() => insert({ id: 'e', until: '2025-01-01T00:00:00.000Z' })).toThrow(
      /CHECK constraint/,
    );
    expect(() => insert({ id: 'f', scopeType: 'tag', scopeValue: 'income' })).not.toThrow();
    // Deleting the profile takes its rules with it.
    db.pragma('foreign_keys = ON');
    db.prepare('DELETE FROM profiles WHERE id = ?').run(profileId);
    expect(db.prepare('SELECT count(*) AS n FROM restrictions').get()).toEqual({ n: 0 });
    db.close();
  });
});
