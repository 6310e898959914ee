import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STRATEGY_IDS as DEMO, DEMO_VERSION_IDS } from '../../../electron/sandbox';
import { HISTORY_TABLES } from '../../../electron/core/store/open';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * What start-up and the first screen ask SQLite, through the real desk on a data folder with a
 * history: every query that reads the cache's history (versions, orders, activity…) finds its
 * rows by a key or from an index that holds only the few rows it wants (the failed ones, the
 * rebalancing ones), so that none reads more as the history grows (docs/book.md, The first
 * screen). SQLite's plan is the same whatever the data (the app keeps no statistics).
 */
/** Every statement run while `work` runs, by its SQL (better-sqlite3 keeps it as `source`). */
async function statementsRun(work: () => Promise<void>): Promise<Set<string>> {
  const probe = new Database(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, unknown>;
  probe.close();
  const seen = new Set<string>();
  const originals = new Map<string, unknown>();
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method] as (this: { source: string }, ...a: unknown[]) => unknown;
    originals.set(method, original);
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      seen.add(this.source);
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [method, original] of originals) proto[method] = original;
  }
  return seen;
}

/** SQLite's plan of a query, each step in its words ("SEARCH versions USING INDEX …"). */
function planOf(db: Database.Database, sql: string): string[] {
  const named = [...new Set([...sql.matchAll(/[@$:](\w+)/g)].map((m) => m[1]!))];
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  const rows = named.length
    ? statement.all(Object.fromEntries(named.map((name) => [name, null])))
    : statement.all(...Array.from(sql.match(/\?/g) ?? [], () => null));
  return (rows as { detail: string }[]).map((r) => r.detail);
}

/**
 * A step that reads a history table grows with it unless it uses an index holding only some of
 * its rows (one with a WHERE), or finds them by an equality on more than the profile.
 */
function growsWithHistory(step: string, partialIndexes: Set<string>): boolean {
  const m =
    /^(SCAN|SEARCH) (\w+)(?: AS \w+)?(?: USING (?:COVERING )?INDEX (\w+))?(?: \((.*)\))?/.exec(
      step,
    );
  if (!m || !HISTORY_TABLES.includes(m[2]!)) return false;
  const [, how, , index, terms = ''] = m;
  if (index && partialIndexes.has(index)) return false;
  if (how === 'SCAN') return true;
  const keys = terms.split(' AND ').filter((t) => /^\w+=\?$/.test(t) && t !== 'profile_id=?');
  return keys.length === 0;
}

describe("start-up's and the first screen's queries", () => {
  let h: DeskHarness;
  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    const profile = await h.desk.profiles.useSandbox({});
    // A history: versions with their orders and positions, and the activity they left.
    await h.desk.versions.import({
      profileId: profile.id,
      strategyId: DEMO.dividendGrowth,
      versionId: DEMO_VERSION_IDS.dividendGrowthScheduled,
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('read none of the history in full, nor all of a profile’s', async () => {
    const run = await statementsRun(async () => {
      const desk = await h.restart();
      const opened = await desk.app.firstScreen({ profileId: null });
      const profileId = opened.book!.profileId;
      await desk.app.status({});
      await desk.strategies.list({ profileId });
    });
    const db = new Database(join(h.dataDir, 'strategy-desk.sqlite'), { readonly: true });
    const partialIndexes = new Set(
      db
        .prepare<[], string>(
          `SELECT name FROM sqlite_schema WHERE type = 'index' AND sql LIKE '%WHERE%'`,
        )
        .pluck()
        .all(),
    );
    const queries = [...run].filter((sql) => /^\s*(SELECT|WITH)\b/i.test(sql));
    // The first screen's own reads are among them.
    expect(queries.some((sql) => /FROM book_rows/.test(sql))).toBe(true);
    expect(queries.some((sql) => /FROM versions/.test(sql))).toBe(true);
    const growing = queries.flatMap((sql) =>
      planOf(db, sql)
        .filter((step) => growsWithHistory(step, partialIndexes))
        .map((step) => `${step}  ←  ${sql.replace(/\s+/g, ' ').slice(0, 160)}`),
    );
    db.close();
    expect(growing).toEqual([]);
  });
});
