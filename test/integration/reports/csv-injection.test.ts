import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_CSV_COLUMNS } from '../../../electron/core/activity/export';
import { ORDER_REPORT_COLUMNS } from '../../../electron/core/reports/index';
import { seedActivity } from '../../support/activity-seed';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';
import { parseCsv } from '../../support/rfc4180';
import {
  orderResponse,
  seedStrategy,
  strategyResponse,
  versionResponse,
} from '../../support/store-fixtures';

/**
 * Formulas hidden behind what a spreadsheet skips (a space, NBSP, zero-width and other invisible
 * characters) or written in full-width and other compatibility forms: every CSV the app writes
 * (order reports, the activity log) gives such a text cell a leading `'`, and leaves numbers
 * numbers. The files are written by the app's own export handlers and parsed back.
 */
const HIDDEN_FORMULAS = [
  ' =1+1',
  '\u00a0=HYPERLINK("http://evil.example","Click")',
  '\u200b+SUM(A1)',
  '\u200c-2+3',
  '\u200d@SUM(A1)',
  '\ufeff=1',
  '\u2060=1',
  '\u3000=1',
  '\u2028=1',
  '\u200e=1',
  ' \u00a0\u200b=1',
  ' \t=1',
  '＝1+1',
  '＋1',
  '－1',
  '＠SUM(A1)',
  '\u00a0＝1',
  '﹦1',
  '⁼1',
];
/** Text that starts no formula: written exactly as it is. */
const HARMLESS = [
  'Global equity',
  ' leading space',
  '\u00a0100 shares',
  '|pipe',
  '%rate',
  '日本株',
];

const column = (columns: readonly string[], name: string) => columns.indexOf(name);

describe('CSV exports neutralize formulas a spreadsheet would still read', () => {
  let h: DeskHarness;
  let profileId: string;
  const names = [...HIDDEN_FORMULAS, ...HARMLESS];

  beforeAll(async () => {
    h = await openDeskHarness();
    profileId = seedStrategy(h.desk.store, strategyResponse({ name: 'Seed' })).profileId;
  });
  afterAll(async () => {
    await h.close();
  });

  it('in an order report: strategy names, symbols and reasons, but not negative decimals', async () => {
    const strategy = strategyResponse({ name: 'Hidden formulas' });
    h.desk.store.strategies.upsert(profileId, strategy);
    const version = versionResponse(strategy.id, { orders: 0, positions: 0 });
    version.orders = names.map((text, i) =>
      orderResponse(i, {
        symbol: text,
        status_reason: text,
        order_quantity: '-12.5',
        filled_quantity: i % 2 ? '-0.000001' : '3',
      }),
    );
    h.desk.store.versions.upsert(profileId, version);
    // The strategy's own name too: each version's cells go the line's fast path or the slow one.
    for (const name of names) {
      const named = strategyResponse({ name });
      h.desk.store.strategies.upsert(profileId, named);
      h.desk.store.versions.upsert(profileId, versionResponse(named.id, { orders: 1 }));
    }

    const written = await h.desk.reports.exportOrders({
      profileId,
      selection: { kind: 'strategy', strategyId: strategy.id },
    });
    const [header, ...records] = parseCsv(await readFile(written!.path, 'utf8'));
    expect(header).toEqual([...ORDER_REPORT_COLUMNS]);
    const at = (name: string) => column(ORDER_REPORT_COLUMNS, name);
    const bySymbol = new Map(records.map((r) => [r[at('order_id')], r]));
    for (const [i, order] of version.orders.entries()) {
      const record = bySymbol.get(order.id)!;
      const expected = HIDDEN_FORMULAS.includes(names[i]!) ? `'${names[i]}` : names[i];
      expect([record[at('symbol')], record[at('status_reason')]], JSON.stringify(names[i])).toEqual(
        [expected, expected],
      );
      expect(record[at('order_quantity')]).toBe('-12.5');
      expect(record[at('filled_quantity')]).toBe(i % 2 ? '-0.000001' : '3');
    }

    for (const name of names) {
      const strategyId = h.desk.store.strategies.list(profileId).find((s) => s.name === name)!.id;
      const one = await h.desk.reports.exportOrders({
        profileId,
        selection: { kind: 'strategy', strategyId },
      });
      const [, record] = parseCsv(await readFile(one!.path, 'utf8'));
      expect(record![at('strategy_name')], JSON.stringify(name)).toBe(
        HIDDEN_FORMULAS.includes(name) ? `'${name}` : name,
      );
      expect(record![at('order_quantity')]).toBe('0.000001');
    }
  });

  it('in the activity log: the profile and every text cell, not the numbers', async () => {
    const logs = names.map((name, i) => {
      const id = `0000000${i % 10}-0000-4000-8000-${String(i).padStart(12, '0')}`;
      seedActivity(h.desk.store, { profileId: id, profileName: name, count: 2 });
      return { id, name };
    });
    const at = (name: string) => column(ACTIVITY_CSV_COLUMNS, name);
    for (const { id, name } of logs) {
      const written = (await h.desk.activity.export({ filter: { profileId: id }, format: 'csv' }))!;
      const [header, ...records] = parseCsv(await readFile(written.path, 'utf8'));
      expect(header).toEqual([...ACTIVITY_CSV_COLUMNS]);
      expect(records).toHaveLength(2);
      for (const record of records) {
        expect(record[at('profile')], JSON.stringify(name)).toBe(
          HIDDEN_FORMULAS.includes(name) ? `'${name}` : name,
        );
        expect(record[at('chain_index')]).toMatch(/^[12]$/);
        expect(record[at('seq')]).toMatch(/^\d+$/);
      }
    }
  });
});
