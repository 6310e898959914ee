import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../shared/decimal';
import { BOOK_FLAGS } from '../../../shared/book/flags';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_BOOK_VERSION_IDS as BOOK_VERSIONS,
} from '../../../electron/sandbox';
import { BOOK_CSV_COLUMNS, HOLDINGS_CSV_COLUMNS } from '../../../electron/core/book/export';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { addMany, createStrategies, wholeBook, WHOLE_BOOK } from '../../support/book';
import { call, tokenFor } from '../../support/sandbox-http';
import { parseCsv } from '../../support/rfc4180';

/** Exposure to a symbol and the book's two exports, through the real desk, sandbox and SQLite. */
describe('exposure and exports of the book', () => {
  let h: DeskHarness;
  let profileId: string;
  let base: string;

  beforeAll(async () => {
    h = await openDeskHarness({ stepMs: 0 });
    profileId = (await h.desk.profiles.useSandbox({})).id;
    base = h.sandbox()!.baseUrl;
    await addMany(h, profileId, Object.values(BOOK));
    for (const [strategyId, versionId] of [
      [BOOK.smallCapGrowth, BOOK_VERSIONS.smallCapGrowthFailed],
      [BOOK.globalGrowth, BOOK_VERSIONS.globalGrowthKnown],
      [BOOK.techLeaders, BOOK_VERSIONS.techLeadersExecuted],
    ] as const)
      await h.desk.versions.import({ profileId, strategyId, versionId });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('says who holds TSLA and how much, exactly, and who targets it', async () => {
    const token = await tokenFor(base, 'manager');
    const held = async (id: string) => {
      const answer = await call(base, 'GET', `/api/v1/strategies/${id}?include=positions`, {
        token,
      });
      return (answer.json.data.positions as { symbol: string; quantity: string }[]).find(
        (p) => p.symbol === 'TSLA',
      )!.quantity;
    };
    const small = await held(BOOK.smallCapGrowth);
    const global = await held(BOOK.globalGrowth);
    const exposure = await h.desk.book.exposure({ profileId, symbol: 'TSLA' });
    expect(exposure.rows.map((r) => [r.name, r.quantity, r.targetWeight, r.targetState])).toEqual([
      ['Global Growth', global, null, 'changed-elsewhere'],
      ['Small Cap Growth', small, '20', 'known'],
    ]);
    expect(exposure).toMatchObject({ holders: 2, targeting: 1 });
    expect(exposure.totalQuantity).toBe(new Decimal(small).plus(global).toFixed());
    // Five strategies' targets are not known here: the app does not claim they leave TSLA out.
    expect(exposure.unknownTargets).toBe(
      (await wholeBook(h, profileId)).filter((r) => r.target.state === 'unknown').length,
    );

    const nvda = await h.desk.book.exposure({ profileId, symbol: 'NVDA' });
    expect(nvda.rows.find((r) => r.name === 'Tech Leaders')).toMatchObject({ targetWeight: '15' });
    expect((await h.desk.book.exposure({ profileId, symbol: 'NOPE' })).rows).toEqual([]);
  });

  it('exports the book, one row per strategy with its columns, flags and tags', async () => {
    await h.desk.book.changeTags({
      profileId,
      selection: { kind: 'ids', strategyIds: [BOOK.globalGrowth] },
      add: ['Growth', '=SUM(A1)'],
      remove: [],
    });
    const result = await h.desk.book.exportStrategies({ profileId, query: WHOLE_BOOK });
    expect(result).not.toBeNull();
    const text = readFileSync(result!.path, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual([...BOOK_CSV_COLUMNS]);
    const book = await wholeBook(h, profileId);
    expect(rows).toHaveLength(book.length);
    expect(result!.rows).toBe(book.length);
    const col = (name: (typeof BOOK_CSV_COLUMNS)[number]) => BOOK_CSV_COLUMNS.indexOf(name);
    const global = rows.find((r) => r[col('strategy_id')] === BOOK.globalGrowth)!;
    expect(global[col('name')]).toBe('Global Growth');
    // A tag that a spreadsheet would run as a formula is neutralized.
    expect(global[col('tags')]).toBe("'=SUM(A1); Growth");
    expect(global[col('target_source')]).toBe('changed-elsewhere');
    expect(global[col('flag_changed_elsewhere')]).toBe('true');
    expect(global[col('flags')]).toBe('changed-elsewhere');
    const small = rows.find((r) => r[col('strategy_id')] === BOOK.smallCapGrowth)!;
    expect(small[col('last_version_status')]).toBe('FAILED');
    expect(small[col('liquidate_only_reason')]).toBe('ORDER_FAILED');
    for (const row of book) {
      const line = rows.find((r) => r[col('strategy_id')] === row.strategyId)!;
      for (const flag of BOOK_FLAGS)
        expect(line[BOOK_CSV_COLUMNS.indexOf(`flag_${flag.replace(/-/g, '_')}` as never)]).toBe(
          String(row.flags.includes(flag)),
        );
      expect(line[col('holdings_count')]).toBe(String(row.holdingsCount));
    }

    // The export follows the book's filter.
    const filtered = await h.desk.book.exportStrategies({
      profileId,
      query: { ...WHOLE_BOOK, tag: 'Growth' },
    });
    expect(parseCsv(readFileSync(filtered!.path, 'utf8'))).toHaveLength(2);
  });

  it('exports every holding with its quantity exactly and the known target weight', async () => {
    const result = await h.desk.book.exportHoldings({ profileId, query: WHOLE_BOOK });
    const [header, ...rows] = parseCsv(readFileSync(result!.path, 'utf8'));
    expect(header).toEqual([...HOLDINGS_CSV_COLUMNS]);
    const col = (name: (typeof HOLDINGS_CSV_COLUMNS)[number]) => HOLDINGS_CSV_COLUMNS.indexOf(name);
    let holdings = 0;
    for (const row of await wholeBook(h, profileId)) {
      const view = await h.desk.strategies.get({ profileId, strategyId: row.strategyId });
      holdings += view.holdings.length;
      const lines = rows.filter((r) => r[col('strategy_id')] === row.strategyId);
      expect(lines.map((l) => [l[col('symbol')], l[col('quantity')]])).toEqual(
        view.holdings.map((hd) => [hd.symbol, hd.quantity]),
      );
      for (const line of lines) {
        const weight = line[col('target_weight')];
        if (!view.currentTarget) expect(weight).toBe('');
        else
          expect(weight).toBe(
            view.currentTarget.positions.find((p) => p.symbol === line[col('symbol')])?.weight ??
              '0',
          );
      }
    }
    expect(rows).toHaveLength(holdings);
    const tsla = rows.filter((r) => r[col('symbol')] === 'TSLA');
    expect(tsla.map((r) => r[col('strategy_name')]).sort()).toEqual([
      'Global Growth',
      'Small Cap Growth',
    ]);
  });

  it('streams a large book, a strategy named like a formula neutralized', async () => {
    const { ids } = await createStrategies(base, {
      count: 600,
      holdings: 5,
      name_prefix: '=HYPERLINK("x")',
    });
    await addMany(h, profileId, ids);
    const book = await h.desk.book.exportStrategies({
      profileId,
      query: { ...WHOLE_BOOK, search: 'HYPERLINK' },
    });
    const rows = parseCsv(readFileSync(book!.path, 'utf8')).slice(1);
    expect(rows).toHaveLength(600);
    expect(rows[0]![1]).toBe(`'=HYPERLINK("x") 001`);
    const holdings = await h.desk.book.exportHoldings({
      profileId,
      query: { ...WHOLE_BOOK, search: 'HYPERLINK' },
    });
    expect(holdings!.rows).toBe(3000);
  });
});
