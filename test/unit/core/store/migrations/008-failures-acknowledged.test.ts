import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, openStore } from '../../../../../electron/core/store';
import {
  orderResponse,
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

describe('migration 008-failures-acknowledged', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('takes a file at schema 5 to 8: failed and partly failed executions count until acknowledged', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(8);
    const path = folder.file();
    const old = openStore(path, { targetVersion: 5 });
    const { profileId, strategyId, strategy } = seedStrategy(old);
    const other = strategyResponse();
    old.strategies.upsert(profileId, other);
    const failed = versionResponse(strategyId, {}, { status: 'FAILED', executed_at: ts(10) });
    // COMPLETE, with one order FAILED: partly failed.
    const partly = versionResponse(other.id, { orders: 0 }, { status: 'COMPLETE' });
    partly.orders = [
      orderResponse(1, { status: 'FILLED' }),
      orderResponse(2, { status: 'FAILED' }),
    ];
    // IGNORED orders alone are routine (below the service's minimum): not counted.
    const ignored = versionResponse(strategyId, { orders: 0 }, { status: 'COMPLETE' });
    ignored.orders = [orderResponse(3, { status: 'IGNORED' })];
    const fine = versionResponse(strategyId, {}, { status: 'COMPLETE' });
    const unexecuted = versionResponse(strategyId, {}, { status: 'FAILED', executed_at: null });
    for (const v of [failed, partly, ignored, fine, unexecuted]) old.versions.upsert(profileId, v);
    old.close();

    const store = openStore(path);
    expect(store.schemaVersion).toBeGreaterThanOrEqual(8);
    expect(store.failures.countUnacknowledged()).toBe(2);
    expect(store.failures.unacknowledgedByStrategy(profileId)).toEqual(
      new Map([
        [strategyId, [failed.id]],
        [other.id, [partly.id]],
      ]),
    );
    expect(store.failures.hasFailed(profileId, ignored.id)).toBe(false);
    expect(store.failures.hasFailed(profileId, partly.id)).toBe(true);

    store.failures.acknowledge(profileId, failed.id, ts(20));
    store.failures.acknowledge(profileId, failed.id, ts(30));
    expect(store.failures.acknowledgedAt(profileId, failed.id)).toBe(ts(20));
    expect(store.failures.countUnacknowledged()).toBe(1);
    expect([...store.failures.unacknowledgedByStrategy(profileId).keys()]).toEqual([other.id]);

    // A version removed from the history takes its acknowledgement with it.
    store.versions.remove(profileId, failed.id);
    expect(store.failures.acknowledgedAt(profileId, failed.id)).toBeNull();
    store.failures.acknowledge(profileId, partly.id, ts(40));
    expect(store.failures.countUnacknowledged()).toBe(0);
    void strategy;
    store.close();
  });

  it("answers the status bar's count from the failed-only indexes, not by reading every version and order", () => {
    const path = folder.file();
    openStore(path).close();
    const plan = planOf(
      path,
      `SELECT count(*) FROM (
         SELECT profile_id, id FROM versions WHERE status = 'FAILED' AND executed_at IS NOT NULL
         UNION SELECT profile_id, version_id FROM orders WHERE status = 'FAILED')`,
    );
    expect(plan).toMatch(/USING (COVERING )?INDEX versions_failed/);
    expect(plan).toMatch(/USING (COVERING )?INDEX orders_failed/);
    expect(plan).not.toMatch(/SCAN (versions|orders)\b(?! USING)/);
  });
});
