import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOK_FLAGS, BOOK_SORTS } from '../../../shared/book/flags';
import type { BookQuery, BookRow } from '../../../shared/book/views';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_BOOK_VERSION_IDS as BOOK_VERSIONS,
  DEMO_STRATEGY_IDS as DEMO,
  DEMO_VERSION_IDS as DEMO_VERSIONS,
} from '../../../electron/sandbox';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from '../../support/desk-harness';
import { addMany, jobEnded, wholeBook, WHOLE_BOOK } from '../../support/book';

/**
 * The book's rows and flags, each derived from what the app has seen, through the real desk, the
 * sandbox's demo book and SQLite: every flag where the demo data puts it, search, sort, filters,
 * tags, and the rows staying in step with every write (not only the book's own reads).
 */
describe('the book of the demo profile', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;
  const byName = (rows: BookRow[]) => new Map(rows.map((r) => [r.name, r]));
  const query = (q: Partial<BookQuery>): BookQuery => ({ ...WHOLE_BOOK, ...q });
  const names = async (q: Partial<BookQuery>) =>
    (await h.desk.book.rows({ profileId, query: query(q), offset: 0, limit: 500 })).rows.map(
      (r) => r.name,
    );

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
    await addMany(h, profileId, Object.values(BOOK));
    // The versions a manager knows of: imported by id (the interface lists none).
    const imports: [string, string][] = [
      [DEMO.dividendGrowth, DEMO_VERSIONS.dividendGrowthScheduled],
      [BOOK.incomePlus, BOOK_VERSIONS.incomePlusExecuted],
      [BOOK.bondLadder, BOOK_VERSIONS.bondLadderExecuted],
      [BOOK.techLeaders, BOOK_VERSIONS.techLeadersExecuted],
      [BOOK.techLeaders, BOOK_VERSIONS.techLeadersScheduled],
      [BOOK.smallCapGrowth, BOOK_VERSIONS.smallCapGrowthFailed],
      [BOOK.globalGrowth, BOOK_VERSIONS.globalGrowthKnown],
      [BOOK.balancedRetirement, BOOK_VERSIONS.balancedRetirementExecuted],
      [BOOK.legacyBalanced, BOOK_VERSIONS.legacyBalancedExecuted],
    ];
    for (const [strategyId, versionId] of imports)
      await h.desk.versions.import({ profileId, strategyId, versionId });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('puts each flag where the demo data has its cause', async () => {
    const rows = byName(await wholeBook(h, profileId));
    const flagged = (flag: string) =>
      [...rows.values()]
        .filter((r) => r.flags.includes(flag as never))
        .map((r) => r.name)
        .sort();
    expect(flagged('failed')).toEqual(['Income Plus', 'Small Cap Growth']);
    expect(flagged('liquidate-only')).toEqual(['Legacy Balanced', 'Small Cap Growth']);
    expect(flagged('unexecuted')).toEqual(['Dividend Growth', 'Tech Leaders']);
    expect(flagged('changed-elsewhere')).toEqual(['Global Growth']);
    expect(flagged('attention')).toEqual([]);
    expect(flagged('refresh-failed')).toEqual([]);
    expect(flagged('stale')).toEqual([]);

    const global = rows.get('Global Growth')!;
    expect(global.target).toMatchObject({
      state: 'changed-elsewhere',
      versionId: BOOK_VERSIONS.globalGrowthKnown,
    });
    expect(global.target.symbols).toContain('TSLA');
    expect(rows.get('Small Cap Growth')).toMatchObject({
      lastVersion: { id: BOOK_VERSIONS.smallCapGrowthFailed, status: 'FAILED' },
      liquidateOnlyReason: 'ORDER_FAILED',
      target: { state: 'known' },
    });
    expect(rows.get('Balanced Growth')!.target).toEqual({
      state: 'unknown',
      versionId: null,
      executedAt: null,
      symbols: [],
    });
    expect(rows.get('Fresh Start')).toMatchObject({ holdingsCount: 0, lastVersion: null });
    expect(rows.get('Core Equity')!.heldSymbols).toEqual([
      'AAPL',
      'AMZN',
      'BRK.B',
      'JPM',
      'MSFT',
      'NVDA',
      'SPY',
    ]);

    // The book's "changed elsewhere" is the Overview's own check, strategy by strategy.
    for (const row of rows.values()) {
      const view = await h.desk.strategies.get({ profileId, strategyId: row.strategyId });
      expect(row.flags.includes('changed-elsewhere'), row.name).toBe(
        view.targetCheck ? !view.targetCheck.fits : false,
      );
      expect(row.holdingsCount).toBe(view.holdings.length);
    }

    const { counts } = await h.desk.book.summary({ profileId });
    expect(counts.strategies).toBe(11);
    expect(counts.flags).toEqual({
      failed: 2,
      'liquidate-only': 2,
      unexecuted: 2,
      attention: 0,
      'changed-elsewhere': 1,
      'refresh-failed': 0,
      stale: 0,
    });
    expect(counts.flagged).toBe(6);
  });

  it('flags an execution whose outcome is unknown, from the journal, as it happens', async () => {
    const draft = await h.desk.drafts.create({
      profileId,
      strategyId: BOOK.bondLadder,
      name: 'Lost answer',
      start: 'target',
    });
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
    await h.desk.versions.execute({ draftId: draft.id }).catch(() => undefined);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    expect(await names({ flags: ['attention'] })).toEqual(['Bond Ladder']);
    // Settled (retried with the same key): the flag goes, and the row knows the new version.
    const entry = (await h.desk.versions.journal({ profileId })).find(
      (e) => e.state === 'unknown',
    )!;
    const { version } = await h.desk.versions.retryExecution({ journalId: entry.id });
    await h.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    const bond = byName(await wholeBook(h, profileId)).get('Bond Ladder')!;
    expect(bond.flags).not.toContain('attention');
    expect(bond.lastVersion).toMatchObject({ id: version.id, status: 'COMPLETE' });
    expect(bond.running).toBe(false);
  });

  it('flags a failed refresh with its reason, and a strategy not synced for longer than the setting', async () => {
    await sandboxAdmin(base, 'PUT', '/sandbox/faults', {
      fail_strategies: [BOOK.balancedRetirement],
      fail_status: 503,
    });
    await h.desk.strategies
      .refresh({ profileId, strategyId: BOOK.balancedRetirement })
      .catch(() => undefined);
    await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
    const retirement = byName(await wholeBook(h, profileId)).get('Balanced Retirement')!;
    expect(retirement.flags).toContain('refresh-failed');
    expect(retirement.refreshFailure).toMatchObject({ kind: 'server', status: 503 });

    // Fresh Start was last read two days ago (edited behind the app's back, as time would).
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000).toISOString();
    const raw = new Database(h.desk.store.path);
    raw
      .prepare('UPDATE strategies SET synced_at = ? WHERE profile_id = ? AND id = ?')
      .run(twoDaysAgo, profileId, DEMO.freshStart);
    raw.close();
    expect(await names({ flags: ['stale'] })).toEqual(['Fresh Start']);
    await h.desk.book.saveSettings({ staleAfterHours: 72 });
    expect(await names({ flags: ['stale'] })).toEqual([]);
    await h.desk.book.saveSettings({ staleAfterHours: 24 });
  });

  it('searches by name, id and held symbol', async () => {
    expect(await names({ search: 'tsla' })).toEqual(['Global Growth', 'Small Cap Growth']);
    expect(await names({ search: 'balanced' })).toEqual([
      'Balanced Growth',
      'Balanced Retirement',
      'Legacy Balanced',
    ]);
    expect(await names({ search: BOOK.techLeaders.slice(0, 8).toUpperCase() })).toEqual([
      'Tech Leaders',
    ]);
    expect(await names({ search: '100%_' })).toEqual([]);
  });

  it('sorts by every column, in a total order both ways', async () => {
    for (const sort of BOOK_SORTS) {
      for (const descending of [false, true]) {
        const page = await h.desk.book.rows({
          profileId,
          query: query({ sort, descending }),
          offset: 0,
          limit: 500,
        });
        expect(page.rows).toHaveLength(11);
        // Windows of the same query give the same rows in the same places.
        const second = await h.desk.book.rows({
          profileId,
          query: query({ sort, descending }),
          offset: 4,
          limit: 3,
        });
        expect(second.rows.map((r) => r.strategyId)).toEqual(
          page.rows.slice(4, 7).map((r) => r.strategyId),
        );
      }
    }
    const holdings = (
      await h.desk.book.rows({
        profileId,
        query: query({ sort: 'holdings', descending: true }),
        offset: 0,
        limit: 500,
      })
    ).rows.map((r) => r.holdingsCount);
    expect(holdings).toEqual([...holdings].sort((a, b) => b - a));
    // Most flags first; equal counts by name, whichever the direction.
    const byFlags = (
      await h.desk.book.rows({
        profileId,
        query: query({ sort: 'flags', descending: true }),
        offset: 0,
        limit: 500,
      })
    ).rows;
    expect(byFlags[0]!.name).toBe('Small Cap Growth');
    const expected = [...byFlags].sort(
      (a, b) => b.flags.length - a.flags.length || a.name.localeCompare(b.name),
    );
    expect(byFlags.map((r) => r.name)).toEqual(expected.map((r) => r.name));
  });

  it('tags strategies, filters by tag and flag, and counts per tag', async () => {
    const growth = [BOOK.techLeaders, BOOK.smallCapGrowth, BOOK.globalGrowth];
    const tagged = await h.desk.book.changeTags({
      profileId,
      selection: { kind: 'ids', strategyIds: growth },
      add: ['Growth', 'Desk A'],
      remove: [],
    });
    expect(tagged.changed).toBe(6);
    expect(tagged.counts.tags).toEqual([
      { tag: 'Desk A', count: 3 },
      { tag: 'Growth', count: 3 },
    ]);
    await h.desk.book.changeTags({
      profileId,
      selection: { kind: 'query', query: query({ search: 'income' }) },
      add: ['Income'],
      remove: [],
    });
    expect(await names({ tag: 'Income' })).toEqual(['Income Plus']);
    expect(await names({ tag: 'Growth', flags: ['failed', 'changed-elsewhere'] })).toEqual([
      'Global Growth',
      'Small Cap Growth',
    ]);
    await h.desk.book.changeTags({
      profileId,
      selection: { kind: 'tag', tag: 'Desk A' },
      add: [],
      remove: ['Desk A'],
    });
    const rows = byName(await wholeBook(h, profileId));
    expect(rows.get('Tech Leaders')!.tags).toEqual(['Growth']);
    expect((await names({ sort: 'tags' })).slice(0, 4)).toEqual([
      'Global Growth',
      'Small Cap Growth',
      'Tech Leaders',
      'Income Plus',
    ]);
    // A refresh keeps the tags: they are the manager's, local to this app.
    const job = await h.desk.book.refresh({ profileId, selection: { kind: 'tag', tag: 'Growth' } });
    expect(job.total).toBe(3);
    await jobEnded(h, job.id);
    expect(byName(await wholeBook(h, profileId)).get('Global Growth')!.tags).toEqual(['Growth']);
  });

  it('every flag is one the book can filter and count', async () => {
    const { counts } = await h.desk.book.summary({ profileId });
    for (const flag of BOOK_FLAGS)
      expect((await names({ flags: [flag] })).length, flag).toBe(counts.flags[flag]);
    expect((await names({ flags: [...BOOK_FLAGS] })).length).toBe(counts.flagged);
  });
});
