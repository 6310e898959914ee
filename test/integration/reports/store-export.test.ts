import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  OrderReportRowError,
  orderReportLines,
  writeOrderReport,
  writeOrderReportLines,
} from '../../../electron/core/reports/index';
import type { OrderReportQuery } from '../../../electron/core/store';
import {
  openTemp,
  orderResponse,
  seedStrategy,
  strategyResponse,
  ts,
  versionResponse,
} from '../../support/store-fixtures';

/**
 * The export reads joined cells from SQLite (orderReportLines); the file must be byte for
 * byte the one formatOrderReportRow gives for the same rows read as objects.
 */
describe('exporting orders from the store', () => {
  let t: ReturnType<typeof openTemp>;
  beforeEach(() => {
    t = openTemp();
  });
  afterEach(() => t.close());

  const NAMES = [
    'Global equity core',
    '=HYPERLINK("http://evil.example","Click")',
    '+Momentum',
    '-Short tilt',
    '@Income',
    '\tTabbed',
    ' =1+1',
    '\u00a0=HYPERLINK("http://evil.example")',
    '\u200b-2+3',
    '＝1+1',
    ' Leading space',
    'Tech, media & telecom',
    'Stratégie défensive 日本株',
    'Say "hi"',
    'Line\r\nbreak',
    '',
  ];

  function seed() {
    const { profileId } = seedStrategy(t.store);
    NAMES.forEach((name, n) => {
      const strategy = strategyResponse({ name });
      t.store.strategies.upsert(profileId, strategy);
      const version = versionResponse(
        strategy.id,
        { orders: 0, positions: 0 },
        { executed_at: ts(10 + n), status: n % 2 ? 'COMPLETE' : null },
      );
      version.orders = Array.from({ length: 6 }, (_, i) =>
        orderResponse(i, {
          symbol: ['AAPL', '=SUM(A1)', 'BRK.B', '-X', 'a,b', '"Q"'][i]!,
          status_reason: [null, null, 'Insufficient cash, order reduced', '@once', 'ok', ''][i]!,
          order_quantity: ['1.5', '3', '-2', '0', '12.000001', '4'][i]!,
          filled_quantity: [null, '1', '-0.5', null, '2', null][i]!,
          filled_value: [null, '10.25', null, '-3', null, '7'][i]!,
        }),
      );
      t.store.versions.upsert(profileId, version);
    });
    return profileId;
  }

  async function both(query: OrderReportQuery): Promise<[string, string]> {
    const viaRows = join(t.folder.dir, 'rows.csv');
    const viaLines = join(t.folder.dir, 'lines.csv');
    await writeOrderReport(t.store.reports.iterateOrderReportRows(query), viaRows);
    const written = await writeOrderReportLines(orderReportLines(t.store.reports, query), viaLines);
    expect(written.rows).toBe(NAMES.length * 6);
    return [await readFile(viaLines, 'utf8'), await readFile(viaRows, 'utf8')];
  }

  /** Changes cached cells behind the app's back, as an old or damaged cache might hold them. */
  function tamper(sql: string, ...args: unknown[]) {
    const db = new Database(t.store.path);
    db.prepare(sql).run(...args);
    db.close();
  }

  it('writes the same bytes as formatting row objects, quoting and neutralizing alike', async () => {
    const profileId = seed();
    const [lines, rows] = await both({ profileId, from: ts(0), to: ts(59) });
    expect(lines).toBe(rows);
    expect(lines).toContain(`,"'=HYPERLINK(""http://evil.example"",""Click"")",`);
    expect(lines).toContain(',"Tech, media & telecom",');
    expect(lines).toContain(",'-Short tilt,");
    expect(lines).toContain(',-2,');
    expect(lines).toContain(',Global equity core,');
    expect(lines).toContain(",'=SUM(A1),");
  });

  it('keeps the same bytes when a cell holds a NUL, reading the rest as row objects', async () => {
    const profileId = seed();
    tamper(`UPDATE strategies SET name = ? WHERE name = '+Momentum'`, '+Mo\0mentum');
    tamper(`UPDATE orders SET symbol = ? WHERE symbol = 'AAPL' AND rowid % 2 = 0`, 'AA\0PL');
    const [lines, rows] = await both({ profileId, from: ts(0), to: ts(59) });
    expect(lines).toBe(rows);
    expect(lines).toContain("'+Mo\0mentum");
  });

  it('refuses a bad decimal naming its order, and an empty one stored where NULL is allowed', async () => {
    const profileId = seed();
    tamper(`UPDATE orders SET order_value = '1e3' WHERE rowid = 3`);
    const db = new Database(t.store.path, { readonly: true });
    const badId = db.prepare('SELECT id FROM orders WHERE rowid = 3').pluck().get() as string;
    db.close();
    const path = join(t.folder.dir, 'bad.csv');
    const query = { profileId, from: ts(0), to: ts(59) };
    await expect(
      writeOrderReportLines(orderReportLines(t.store.reports, query), path),
    ).rejects.toThrow(
      `Order ${badId} cannot be exported: its order_value is "1e3", which is not a plain decimal number`,
    );

    tamper(`UPDATE orders SET order_value = '1' WHERE order_value = '1e3'`);
    tamper(`UPDATE orders SET filled_average_price = '' WHERE rowid = 5`);
    await expect(
      writeOrderReportLines(orderReportLines(t.store.reports, query), path),
    ).rejects.toThrow(OrderReportRowError);
    await expect(
      writeOrderReportLines(orderReportLines(t.store.reports, query), path),
    ).rejects.toThrow(/its filled_average_price is empty/);
  });
});
