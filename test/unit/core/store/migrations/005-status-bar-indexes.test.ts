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

const REBALANCING = `('PENDING', 'CREATING_ORDERS', 'IN_PROGRESS')`;

describe('migration 005-status-bar-indexes', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it("answers the status bar's counts from indexes, not by reading every version and strategy", () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(5);
    const path = folder.file();
    openStore(path).close();
    expect(
      planOf(
        path,
        `SELECT count(*) FROM versions WHERE executed_at IS NOT NULL AND status IN ${REBALANCING}`,
      ),
    ).toMatch(/USING (COVERING )?INDEX versions_rebalancing/);
    expect(planOf(path, 'SELECT max(synced_at) FROM strategies')).toMatch(
      /USING COVERING INDEX strategies_by_synced_at/,
    );
    expect(planOf(path, "SELECT count(*) FROM execution_journal WHERE state = 'unknown'")).toMatch(
      /USING COVERING INDEX journal_by_state/,
    );
  });

  it('takes a file at schema 3 to 5, and the figures match the versions and strategies', () => {
    const path = folder.file();
    const old: Store = openStore(path, { targetVersion: 3 });
    const { profileId, strategyId, strategy } = seedStrategy(old);
    old.strategies.upsert(profileId, strategy, { syncedAt: ts(30) });
    const other = strategyResponse();
    old.strategies.upsert(profileId, other, { syncedAt: ts(40) });
    const running = versionResponse(strategyId, {}, { status: 'IN_PROGRESS', executed_at: ts(20) });
    const done = versionResponse(strategyId, {}, { status: 'COMPLETE', executed_at: ts(10) });
    const scheduled = versionResponse(strategyId, {}, { status: 'SCHEDULED', executed_at: null });
    const elsewhere = versionResponse(other.id, {}, { status: 'PENDING', executed_at: ts(30) });
    for (const v of [running, done, scheduled, elsewhere]) old.versions.upsert(profileId, v);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(5);
    expect(store.versions.countActive()).toBe(2);
    expect(store.versions.listActive().map((v) => v.id)).toEqual([running.id, elsewhere.id]);
    expect(store.versions.listActive({ profileId }).map((v) => v.id)).toEqual([
      running.id,
      elsewhere.id,
    ]);
    expect(store.versions.listActive({ profileId, strategyId }).map((v) => v.id)).toEqual([
      running.id,
    ]);
    expect(store.versions.listActive({ profileId: 'another' })).toEqual([]);
    expect(store.strategies.lastSyncedAt()).toBe(ts(40));
    expect(store.journal.countUnknown()).toBe(0);
    store.close();
  });
});
