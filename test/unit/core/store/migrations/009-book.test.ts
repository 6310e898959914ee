import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore, type Store } from '../../../../../electron/core/store';
import {
  seedStrategy,
  strategyResponse,
  tempFolder,
  ts,
  versionResponse,
} from '../../../../support/store-fixtures';

/** How SQLite answers the query: "SCAN" reads every row, "SEARCH … USING … INDEX" does not. */
function planOf(path: string, sql: string): string {
  const db = new Database(path, { readonly: true });
  const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
    .map((r) => r.detail)
    .join('; ');
  db.close();
  return plan;
}

/** A worked-out row of the book, as rows.ts would store it. */
const rowOf = (profileId: string, strategyId: string) => ({
  profile_id: profileId,
  strategy_id: strategyId,
  name: 'Core Equity',
  synced_at: ts(1),
  holdings_count: 2,
  held_symbols: ['AAPL', 'BRK.B'],
  target_state: 'unknown' as const,
  target_version_id: null,
  target_executed_at: null,
  changed_symbols: [],
  last_version_id: null,
  last_version_status: null,
  last_version_at: null,
  running: false,
  liquidate_only_reason: null,
  flag_failed: false,
  flag_liquidate_only: false,
  flag_unexecuted: false,
  flag_attention: false,
  flag_changed_elsewhere: false,
  computed_at: ts(2),
});

const marks = (store: Store, profileId: string) =>
  store.book.dirty(profileId).map((m) => m.strategy_id);

describe('migration 009-book', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 8 to 9, marking every cached strategy for the book', () => {
    const path = folder.file();
    const old = openStore(path, { targetVersion: 8 });
    const { profileId, strategyId } = seedStrategy(old);
    const other = strategyResponse();
    old.strategies.upsert(profileId, other);
    old.close();

    const store = openStore(path);
    expect(MIGRATIONS.map((m) => m.version)).toContain(9);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(9);
    expect(marks(store, profileId).sort()).toEqual([strategyId, other.id].sort());
    expect(store.book.counts(profileId, ts(0))).toMatchObject({ strategies: 0 });
    store.close();
  });

  it('marks a strategy in the same transaction as each write its row derives from', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId, strategy } = seedStrategy(store);
    const clear = () => store.book.clearDirty(profileId, strategyId);
    const marked = () => marks(store, profileId).includes(strategyId);

    // Read again as it was: nothing the row shows changed, so no mark.
    clear();
    store.strategies.upsert(profileId, strategy);
    expect(marked()).toBe(false);
    // Other holdings, another update time, liquidate-only: each marks it.
    store.strategies.upsert(profileId, {
      ...strategy,
      positions: strategy.positions!.map((p) => ({ ...p, quantity: '1.5' })),
    });
    expect(marked()).toBe(true);
    clear();
    store.strategies.upsert(profileId, { ...strategy, updated_at: ts(50) });
    expect(marked()).toBe(true);
    clear();
    store.strategies.upsert(profileId, { ...strategy, positions: [] });
    expect(marked()).toBe(true);
    clear();
    store.strategies.upsert(profileId, { ...strategy, is_liquidate_only: true });
    expect(marked()).toBe(true);

    clear();
    const version = versionResponse(strategyId);
    store.versions.upsert(profileId, version);
    expect(marked()).toBe(true);
    clear();
    store.versions.upsert(profileId, { ...version, status: 'COMPLETE' });
    expect(marked()).toBe(true);

    clear();
    const entry = store.journal.create({
      profileId,
      strategyId,
      idempotencyKey: 'k1',
      requestBody: '{}',
    });
    // Journaled: nothing the row shows moved (migration 020); an outcome turned unknown did.
    expect(marked()).toBe(false);
    store.journal.markUnknown(entry.id, 'lost');
    expect(marked()).toBe(true);

    clear();
    store.predictions.recordBaseline(profileId, strategyId, version.id, ts(9));
    expect(marked()).toBe(true);

    clear();
    store.versions.remove(profileId, version.id);
    expect(marked()).toBe(true);

    // A write that rolls back leaves no mark.
    clear();
    expect(() =>
      store.transaction(() => {
        store.strategies.upsert(profileId, { ...strategy, name: 'Renamed' });
        throw new Error('rolled back');
      }),
    ).toThrow('rolled back');
    expect(marked()).toBe(false);
    store.close();
  });

  it('marks once however many upserts of one transaction meet the same strategy', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId, strategy } = seedStrategy(store);
    const version = versionResponse(strategyId);
    // An upsert's own conflict handling overrides a trigger's OR IGNORE: the marks must not
    // rely on it (this failed every second write of a strategy with a UNIQUE constraint).
    store.transaction(() => {
      store.strategies.upsert(profileId, { ...strategy, name: 'One' });
      store.strategies.upsert(profileId, { ...strategy, name: 'Two' });
      store.versions.upsert(profileId, version);
      store.versions.upsert(profileId, { ...version, status: 'IN_PROGRESS' });
      store.versions.upsert(profileId, { ...version, status: 'COMPLETE' });
    });
    expect(marks(store, profileId)).toEqual([strategyId]);
    store.close();
  });

  it('moves a row’s sync time in place when a read changed nothing else', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId, strategy } = seedStrategy(store);
    store.book.putRow(rowOf(profileId, strategyId));
    store.strategies.upsert(profileId, strategy, { syncedAt: ts(59) });
    expect(marks(store, profileId)).toEqual([]);
    expect(store.book.rows(profileId, [strategyId], ts(0))[0]!.synced_at).toBe(ts(59));
    store.close();
  });

  it('drops the row, tags and failed read of a removed strategy with it', () => {
    const store = openStore(folder.file());
    const { profileId, strategyId } = seedStrategy(store);
    store.book.putRow(rowOf(profileId, strategyId));
    store.book.changeTags(profileId, [strategyId], ['Growth'], [], ts(3));
    store.strategies.recordReadFailure(profileId, strategyId, {
      kind: 'server',
      message: 'down',
      status: 503,
      at: ts(4),
    });
    expect(store.book.counts(profileId, ts(0))).toMatchObject({
      strategies: 1,
      flagged: 1,
      flags: { 'refresh-failed': 1 },
    });
    store.strategies.remove(profileId, strategyId);
    expect(store.book.counts(profileId, ts(0)).strategies).toBe(0);
    expect(store.book.tagCounts(profileId)).toEqual([]);
    // A failure is kept only for a strategy the app holds.
    store.strategies.recordReadFailure(profileId, strategyId, {
      kind: 'server',
      message: 'down',
      status: 503,
      at: ts(5),
    });
    const raw = new Database(store.path, { readonly: true });
    expect(raw.prepare('SELECT count(*) AS n FROM book_refresh_failures').get()).toEqual({ n: 0 });
    raw.close();
    store.close();
  });

  it('answers the book from indexes: rows by name, holders by symbol, tags by tag', () => {
    const path = folder.file();
    openStore(path).close();
    expect(
      planOf(
        path,
        `SELECT strategy_id FROM book_rows WHERE profile_id = 'p'
         ORDER BY name COLLATE NOCASE, strategy_id LIMIT 50`,
      ),
    ).toMatch(/USING (COVERING )?INDEX book_rows_by_name/);
    expect(
      planOf(path, `SELECT strategy_id FROM holdings WHERE profile_id = 'p' AND symbol = 'TSLA'`),
    ).toMatch(/USING COVERING INDEX holdings_by_symbol/);
    expect(
      planOf(path, `SELECT strategy_id FROM strategy_tags WHERE profile_id = 'p' AND tag = 'x'`),
    ).toMatch(/USING COVERING INDEX strategy_tags_by_tag/);
  });
});
