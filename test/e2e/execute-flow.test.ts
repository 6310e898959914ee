import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { ORDER_REPORT_COLUMNS } from '../../electron/core/reports/columns';
import { DEMO_STRATEGY_IDS, HALTED_SYMBOL } from '../../electron/sandbox';
import { groupDigits } from '../../shared/figures';
import type { VersionDetail } from '../../shared/views';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  executeDraft,
  openStrategyTab,
  useVersionsE2E,
  tableRows,
} from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';
import { parseCsv } from '../support/rfc4180';

/**
 * Executing and following a rebalance on screen: drafts go through the desk contract (the Drafts
 * screen is tested on its own); the version detail, its live step line, its orders and its CSV
 * are the app's, in Chromium against the browser host, the real desk, sandbox and SQLite.
 */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

const { coreEquity, freshStart } = DEMO_STRATEGY_IDS;

async function openDetailFromList(page: Page, versionId: string) {
  await page.getByRole('button', { name: `Open version ${versionId.slice(0, 8)}` }).click();
  await page.getByRole('heading', { name: `Version ${versionId}` }).waitFor();
}

const stepState = (page: Page, status: string) =>
  page.locator(`ol[aria-label="Rebalance steps"] li[data-status="${status}"]`);

/** The orders table rows on screen, by order symbol, with the cells the manager reads. */
async function ordersOnScreen(page: Page, versionId: string) {
  const rows = await tableRows(page, `Orders of version ${versionId}`);
  return rows.map(([date, side, symbol, status, qty, value, fqty, fvalue, avg, reason]) => ({
    date,
    side,
    symbol,
    status,
    reason,
    qty,
    value,
    fqty,
    fvalue,
    avg,
  }));
}

function expectedOnScreen(version: VersionDetail) {
  return version.orders.map((o) => ({
    date: o.date,
    side: o.side,
    symbol: o.symbol,
    status: o.status,
    reason: o.status_reason ?? '',
    // Grouped by thousands on screen, every digit as stored.
    qty: groupDigits(o.order_quantity),
    value: groupDigits(o.order_value),
    fqty: o.filled_quantity === null ? '—' : groupDigits(o.filled_quantity),
    fvalue: o.filled_value === null ? '—' : groupDigits(o.filled_value),
    avg: o.filled_average_price === null ? '—' : groupDigits(o.filled_average_price),
  }));
}

describe('executing a version and following it on screen', () => {
  withChromium(
    'Core Equity: the step line reaches COMPLETE live, fills on screen, CSV matches',
    async () => {
      const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Core Equity', 'Versions');
      await page.getByRole('table', { name: 'Versions, newest first' }).waitFor();
      await screenshot(page, 'versions-01-list');

      // Slow steps so the screen sees each one arrive.
      await e2e().setStepMs(800);
      const version = await executeDraft(e2e(), coreEquity, (rows) => [
        ...rows.map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '13.5' } : r)),
        { symbol: 'GOOGL', weight: '1.5', locked: false },
      ]);
      await openDetailFromList(page, version.id);
      await stepState(page, 'IN_PROGRESS').and(page.locator('.current, .done')).waitFor();
      await screenshot(page, 'versions-02-detail-running');
      await stepState(page, 'COMPLETE').and(page.locator('.complete')).waitFor({ timeout: 15_000 });
      await e2e().setStepMs(20);

      // Steps seen on this screen carry the time they were seen.
      const times = await page
        .locator('ol[aria-label="Rebalance steps"] li')
        .evaluateAll((lis) => lis.map((li) => li.textContent?.replace(/\s+/g, ' ').trim()));
      expect(times[3]).toMatch(/COMPLETE .*seen \d/);
      expect(times[2]).toMatch(/IN_PROGRESS .*seen \d/);
      expect(times[0]).toMatch(/PENDING .*(executed|seen) \d/);

      // Every order, its fills and decimals, exactly as the desk stored them.
      const stored = await e2e().harness.desk.versions.get({
        profileId: e2e().profileId,
        strategyId: coreEquity,
        versionId: version.id,
      });
      expect(stored.status).toBe('COMPLETE');
      expect(stored.orders.length).toBeGreaterThan(0);
      await expect.poll(() => ordersOnScreen(page, version.id)).toEqual(expectedOnScreen(stored));
      expect(stored.orders.some((o) => o.status === 'FILLED')).toBe(true);

      // Positions with the service's actions.
      const positions = await tableRows(page, /^Positions/);
      expect(positions.map((r) => [r[0], r[1], r[2], r[4]])).toEqual(
        stored.positions.map((p) => [p.symbol, p.old_weight, p.weight, p.action]),
      );
      await screenshot(page, 'versions-03-detail-complete');

      // Export CSV from the detail: every order id, status and decimal as received.
      await page.getByRole('button', { name: 'Export CSV' }).click();
      const pathText = page.getByTestId('export-path');
      await pathText.waitFor();
      await screenshot(page, 'versions-04-detail-exported');
      const csv = parseCsv(readFileSync((await pathText.textContent())!.trim(), 'utf8'));
      expect(csv[0]).toEqual([...ORDER_REPORT_COLUMNS]);
      const col = (name: (typeof ORDER_REPORT_COLUMNS)[number]) =>
        ORDER_REPORT_COLUMNS.indexOf(name);
      const byId = new Map(csv.slice(1).map((r) => [r[col('order_id')], r]));
      expect(byId.size).toBe(stored.orders.length);
      for (const o of stored.orders) {
        const row = byId.get(o.id)!;
        expect(row[col('version_id')]).toBe(version.id);
        expect(row[col('status')]).toBe(o.status);
        expect(row[col('side')]).toBe(o.side);
        expect(row[col('order_quantity')]).toBe(o.order_quantity);
        expect(row[col('order_value')]).toBe(o.order_value);
        expect(row[col('filled_quantity')]).toBe(o.filled_quantity ?? '');
        expect(row[col('filled_value')]).toBe(o.filled_value ?? '');
        expect(row[col('filled_average_price')]).toBe(o.filled_average_price ?? '');
      }
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium(
    'HALTED: the version FAILS, the failed order shows its reason, the strategy turns liquidate-only',
    async () => {
      const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Fresh Start', 'Versions');
      await page.getByText('No version of Fresh Start is known').waitFor();
      const version = await executeDraft(
        e2e(),
        freshStart,
        () => [
          { symbol: 'AAPL', weight: '40', locked: false },
          { symbol: HALTED_SYMBOL, weight: '10', locked: false },
        ],
        'empty',
      );
      await openDetailFromList(page, version.id);
      await stepState(page, 'FAILED').and(page.locator('.failed')).waitFor({ timeout: 15_000 });

      const failedRow = page
        .getByRole('table', { name: `Orders of version ${version.id}` })
        .locator('tr.failed');
      await failedRow.first().waitFor();
      expect(await failedRow.locator('td').nth(2).textContent()).toBe(HALTED_SYMBOL);
      expect(await failedRow.locator('td.reason').textContent()).toMatch(/halted/i);
      const note = page.getByRole('alert').filter({ hasText: 'This rebalance failed' });
      await note.getByText(`${HALTED_SYMBOL}`).first().waitFor();
      // The detail refreshes the strategy when the rebalance ends.
      await note.getByText('Fresh Start is now liquidate-only').waitFor();
      expect(await note.textContent()).toContain('ORDER_FAILED');
      await screenshot(page, 'versions-05-detail-failed');

      // The Overview after a refresh: the banner with its reason.
      await page.getByRole('tab', { name: 'Overview' }).click();
      await page.getByRole('button', { name: 'Refresh' }).click();
      const banner = page.getByRole('status').filter({ hasText: 'Liquidate-only.' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('ORDER_FAILED');
      await screenshot(page, 'versions-06-overview-liquidate-only');
      expect(problems).toEqual([]);
      await page.close();
    },
    40_000,
  );

  withChromium(
    'a restart with a version in flight: the detail follows it again to COMPLETE',
    async () => {
      await e2e().setStepMs(1500);
      const version = await executeDraft(e2e(), coreEquity, (rows) =>
        rows.map((r) => (r.symbol === 'MSFT' ? { ...r, weight: '14' } : r)),
      );
      await e2e().harness.waitFor(
        (e) =>
          e.type === 'version-status-changed' &&
          e.versionId === version.id &&
          e.status === 'IN_PROGRESS',
      );
      await e2e().restart();
      const stillRunning = e2e().harness.desk.store.versions.get(e2e().profileId, version.id);
      expect(stillRunning?.status).toBe('IN_PROGRESS');

      const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Core Equity', 'Versions');
      await openDetailFromList(page, version.id);
      await screenshot(page, 'versions-07-detail-after-restart');
      await stepState(page, 'COMPLETE').and(page.locator('.complete')).waitFor({ timeout: 15_000 });
      await e2e().setStepMs(20);
      await page.close();
    },
    40_000,
  );
});
