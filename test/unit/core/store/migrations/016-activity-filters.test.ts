import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActivityFilter } from '../../../../../shared/activity/views';
import { MIGRATIONS, openStore, type Store } from '../../../../../electron/core/store';
import { seedActivity } from '../../../../support/activity-seed';
import { tempFolder } from '../../../../support/store-fixtures';

/** How SQLite answers the query: "SCAN" reads every row, "SEARCH … USING … INDEX" does not. */
function planOf(db: Database.Database, sql: string, params: unknown[] = []): string {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((r) => r.detail)
    .join('; ');
}

const PROFILE = '44444444-4444-4444-8444-444444444444';
const STRATEGIES = [randomUUID(), randomUUID(), randomUUID()];

/** What the filter matches, counted entry by entry (the count the per-day counts must equal). */
function countedOneByOne(db: Database.Database, filter: ActivityFilter): number {
  const entries = db
    .prepare('SELECT kind, strategy_id, at FROM activity WHERE profile_id = ?')
    .all(filter.profileId) as { kind: string; strategy_id: string | null; at: string }[];
  return entries.filter(
    (e) =>
      (filter.strategyId === undefined || e.strategy_id === filter.strategyId) &&
      (filter.kinds === undefined || (filter.kinds as string[]).includes(e.kind)) &&
      (filter.from === undefined || e.at.slice(0, 10) >= filter.from) &&
      (filter.to === undefined || e.at.slice(0, 10) <= filter.to),
  ).length;
}

const FILTERS: ActivityFilter[] = [
  { profileId: PROFILE },
  { profileId: PROFILE, kinds: ['execution-sent'] },
  { profileId: PROFILE, kinds: ['version-ended', 'strategy-added'] },
  { profileId: PROFILE, kinds: [] },
  { profileId: PROFILE, strategyId: STRATEGIES[1]! },
  { profileId: PROFILE, from: '2026-01-06', to: '2026-01-06' },
  { profileId: PROFILE, from: '2026-01-07' },
  { profileId: PROFILE, to: '2026-01-05' },
  {
    profileId: PROFILE,
    strategyId: STRATEGIES[0]!,
    kinds: ['execution-answered'],
    from: '2026-01-05',
    to: '2026-01-07',
  },
];

describe('migration 016-activity-filters', () => {
  let folder: ReturnType<typeof tempFolder>;
  beforeEach(() => {
    folder = tempFolder();
  });
  afterEach(() => folder.cleanup());

  it('filters by day, kind and strategy through indexes, and totals from the per-day counts', () => {
    expect(MIGRATIONS.map((m) => m.version)).toContain(16);
    const path = folder.file();
    const store = openStore(path);
    seedActivity(store, { profileId: PROFILE, count: 50, strategyIds: STRATEGIES });
    const db = new Database(path, { readonly: true });
    // The page's seqs come from the filter's own index, newest first (no scan of the log).
    const page = (where: string) =>
      `SELECT seq FROM activity WHERE profile_id = ? AND ${where} ORDER BY seq DESC LIMIT 50`;
    expect(planOf(db, page("kind IN ('execution-sent')"), [PROFILE])).toMatch(
      /SEARCH activity USING COVERING INDEX activity_kind \(profile_id=\? AND kind=\?\)/,
    );
    expect(planOf(db, page('at >= ? AND at < ?'), [PROFILE, '2026-01-06', '2026-01-07'])).toMatch(
      /SEARCH activity USING COVERING INDEX activity_day \(profile_id=\? AND at>\? AND at<\?\)/,
    );
    expect(planOf(db, page('strategy_id = ?'), [PROFILE, STRATEGIES[0]])).toMatch(
      /SEARCH activity USING COVERING INDEX activity_strategy/,
    );
    // A total reads the counts of the filter's days, or the totals, never the entries.
    const days = planOf(
      db,
      "SELECT sum(entries) FROM activity_counts WHERE profile_id = ? AND kind IN ('execution-sent') AND day >= ? AND day <= ?",
      [PROFILE, '2026-01-06', '2026-01-06'],
    );
    expect(days).toMatch(
      /SEARCH activity_counts USING PRIMARY KEY \(profile_id=\? AND day>\? AND day<\?\)/,
    );
    const totals = planOf(
      db,
      'SELECT sum(entries) FROM activity_totals WHERE profile_id = ? AND strategy_id = ?',
      [PROFILE, STRATEGIES[0]],
    );
    expect(totals).toMatch(
      /SEARCH activity_totals USING PRIMARY KEY \(profile_id=\? AND strategy_id=\?\)/,
    );
    for (const plan of [days, totals]) expect(plan).not.toMatch(/SCAN|activity /);
    db.close();
    store.close();
  });

  it('counts every filter as the entries themselves do, for a file taken from 12 and after new entries', () => {
    const path = folder.file();
    const old: Store = openStore(path, { targetVersion: 12 });
    // Two days and a bit, a minute apart, then more entries written by the migrated file.
    seedActivity(old, { profileId: PROFILE, count: 3000, strategyIds: STRATEGIES });
    old.close();
    const store = openStore(path);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(16);
    seedActivity(store, {
      profileId: PROFILE,
      count: 500,
      strategyIds: STRATEGIES,
      startAt: '2026-01-07T12:00:00.000Z',
    });
    for (const filter of FILTERS) {
      const expected = countedOneByOne(db, filter);
      expect(store.activity.count(filter), JSON.stringify(filter)).toBe(expected);
      // The page holds the newest of the same entries.
      const page = store.activity.page(filter, 0, 20);
      expect(page.map((r) => r.seq)).toEqual([...page.map((r) => r.seq)].sort((a, b) => b - a));
      expect(page.length).toBe(Math.min(20, expected));
    }
    expect(countedOneByOne(db, FILTERS[5]!)).toBe(1440);
    db.close();
    store.close();
  });
});
