import { describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { Decimal } from '../../shared/decimal';
import { groupDigits } from '../../shared/figures';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  executeDraft,
  openStrategyTab,
  useVersionsE2E,
  tableRows,
} from '../support/e2e-versions-setup';
import { syntheticVersion } from '../support/e2e-versions-synthetic';
import { itNeeds } from '../support/system-parts';

/** The Versions tab in Chromium: import by id, delete, compare, and a table of 10,000 orders. */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

const VIEWPORT = { width: 1360, height: 900 };

describe('the Versions tab', () => {
  withChromium('import by id (with its refusals) and delete an unexecuted version', async () => {
    const page = await e2e().browser.newPage({ viewport: VIEWPORT });
    const problems = collectPageProblems(page);
    await page.goto(e2e().host.url);
    await openStrategyTab(page, 'Dividend Growth', 'Versions');
    const form = page.getByRole('form', { name: 'Import a version by id' });
    const field = form.getByLabel('Import a version by id');

    // Not an id: refused on the field, nothing sent.
    await field.fill('dividend-growth-v2');
    await form.getByRole('button', { name: 'Import' }).click();
    await form.getByText('A version id looks like').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');

    // An id the service does not know, and one of another organization: refused in words.
    for (const id of ['0f0e0d0c-0b0a-4909-8807-060504030201', DEMO_VERSION_IDS.otherFundExecuted]) {
      await field.fill(id);
      await form.getByRole('button', { name: 'Import' }).click();
      const refusal = form.getByRole('alert').filter({ hasText: `has no version ${id}` });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('another organization');
      expect(await refusal.textContent()).not.toMatch(/[{}]/);
    }
    await form.getByText('Details').click();
    await screenshot(page, 'versions-08-import-refused');

    // The unexecuted version that blocks Dividend Growth: imported, then deleted.
    const scheduled = DEMO_VERSION_IDS.dividendGrowthScheduled;
    await field.fill(` ${scheduled.toUpperCase()} `);
    await form.getByRole('button', { name: 'Import' }).click();
    await page.getByText(`Imported version ${scheduled}`).waitFor();
    const short = scheduled.slice(0, 8);
    const deleteScheduled = page.getByRole('button', { name: `Delete version ${short}` });
    expect(await deleteScheduled.isEnabled()).toBe(true);
    const executed = page.getByRole('button', {
      name: `Delete version ${DEMO_VERSION_IDS.dividendGrowthExecuted.slice(0, 8)}`,
    });
    expect(await executed.isDisabled()).toBe(true);
    expect(await executed.getAttribute('title')).toMatch(/executed version cannot be deleted/i);
    await screenshot(page, 'versions-09-imported-scheduled');

    await deleteScheduled.click();
    // Read from the service and shown; the button that deletes it names it.
    const confirm = page.getByRole('dialog', {
      name: `Unexecuted version ${short}… of Dividend Growth`,
    });
    await confirm.getByRole('table', { name: `Positions of version ${short}…` }).waitFor();
    await screenshot(page, 'versions-10-delete-confirm');
    await confirm
      .getByRole('button', { name: new RegExp(`^Delete version ${short}…, scheduled for `) })
      .click();
    await page.getByText(`Version ${scheduled} was deleted from the service.`).waitFor();
    expect(await page.getByRole('button', { name: `Open version ${short}` }).count()).toBe(0);
    // The service no longer has it.
    const gone = await e2e()
      .harness.desk.versions.import({
        profileId: e2e().profileId,
        strategyId: DEMO_STRATEGY_IDS.dividendGrowth,
        versionId: scheduled,
      })
      .catch((e: { kind: string }) => e);
    expect((gone as { kind: string }).kind).toBe('not-found');
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium('compare two versions: weights side by side with the change', async () => {
    const version = await executeDraft(e2e(), DEMO_STRATEGY_IDS.coreEquity, (rows) => [
      ...rows
        .filter((r) => r.symbol !== 'JPM')
        .map((r) => (r.symbol === 'AAPL' ? { ...r, weight: '13.25' } : r)),
      { symbol: 'KO', weight: '2', locked: false },
    ]);
    await e2e().harness.waitFor(
      (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
    );
    const page = await e2e().browser.newPage({ viewport: VIEWPORT });
    await page.goto(e2e().host.url);
    await openStrategyTab(page, 'Core Equity', 'Versions');
    for (const id of [version.id, DEMO_VERSION_IDS.coreEquityExecuted]) {
      await page.getByRole('checkbox', { name: `Compare version ${id.slice(0, 8)}` }).check();
    }
    await page.getByRole('button', { name: 'Compare selected (2 of 2)' }).click();
    const table = page.getByRole('table', { name: 'Compare versions' });
    await table.waitFor();
    await table.locator('tbody tr').first().waitFor();
    const rows = await table
      .locator('tbody tr, tfoot tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent?.trim())),
      );
    const bySymbol = new Map(rows.map((r) => [r[0], r.slice(1)]));
    // The earlier version first; from its positions, as the service sent them.
    const before = await e2e().harness.desk.versions.get({
      profileId: e2e().profileId,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    const after = await e2e().harness.desk.versions.get({
      profileId: e2e().profileId,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
      versionId: version.id,
    });
    const weight = (v: typeof before, s: string) => v.positions.find((p) => p.symbol === s)?.weight;
    expect(bySymbol.get('AAPL')).toEqual([weight(before, 'AAPL'), '13.25', '-1.75']);
    expect(bySymbol.get('KO')).toEqual(['—', weight(after, 'KO'), '+2']);
    expect(bySymbol.get('JPM')?.[2]).toBe(
      new Decimal(weight(after, 'JPM') ?? '0').minus(weight(before, 'JPM')!).toFixed(),
    );
    expect(bySymbol.get('Cash')).toEqual([
      before.cashWeight,
      after.cashWeight,
      (() => {
        const d = new Decimal(after.cashWeight).minus(before.cashWeight);
        return d.gt(0) ? `+${d.toFixed()}` : d.toFixed();
      })(),
    ]);
    await screenshot(page, 'versions-11-compare');
    await page.close();
  });

  withChromium(
    'a version of 10,000 orders: virtualized, scrolls by keyboard, exact totals',
    async () => {
      const synthetic = syntheticVersion(DEMO_STRATEGY_IDS.freshStart, 10_000);
      e2e().harness.desk.store.versions.upsert(e2e().profileId, synthetic, { origin: 'imported' });
      const page = await e2e().browser.newPage({ viewport: VIEWPORT });
      const problems = collectPageProblems(page);
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Fresh Start', 'Versions');
      await page.getByRole('button', { name: `Open version ${synthetic.id.slice(0, 8)}` }).click();
      const table = page.getByRole('table', { name: `Orders of version ${synthetic.id}` });
      await table.waitFor();
      expect(await table.getAttribute('aria-rowcount')).toBe('10001');
      const domRows = () => table.locator('tbody tr.row').count();
      expect(await domRows()).toBeLessThan(80);

      // Totals, exact, once the slices are summed.
      const orders = synthetic.orders!;
      const sum = (side: string, key: 'order_value' | 'filled_value') =>
        orders
          .filter((o) => o.side === side && o[key] !== null)
          .reduce((acc, o) => acc.plus(o[key]!), new Decimal(0))
          .toFixed(2);
      // On screen, grouped by thousands: every digit of the exact sum.
      const shown = (side: string, key: 'order_value' | 'filled_value') =>
        groupDigits(sum(side, key));
      const totals = page.getByRole('table', { name: /Totals of buys and sells/ });
      await expect
        .poll(() => tableRows(page, /Totals of buys and sells/).then((r) => r[0]?.[1]))
        .toBe(shown('BUY', 'order_value'));
      const totalRows = await tableRows(page, /Totals of buys and sells/);
      expect(totalRows[0]).toEqual([
        orders.filter((o) => o.side === 'BUY').length.toLocaleString('en-US'),
        shown('BUY', 'order_value'),
        shown('BUY', 'filled_value'),
      ]);
      expect(totalRows[1]?.slice(1)).toEqual([
        shown('SELL', 'order_value'),
        shown('SELL', 'filled_value'),
      ]);
      await totals.scrollIntoViewIfNeeded();
      await screenshot(page, 'versions-12-ten-thousand-orders');

      // Keyboard: End reaches the last order, PageUp goes back, the DOM stays small.
      const scroller = page.getByRole('region', { name: /Orders of version/ });
      await scroller.focus();
      await page.keyboard.press('End');
      const last = table.locator('tr[aria-rowindex="10001"]');
      await last.waitFor();
      expect(await last.locator('td').nth(2).textContent()).toBe(orders.at(-1)!.symbol);
      expect(await last.locator('td').nth(4).textContent()).toBe(
        groupDigits(orders.at(-1)!.order_quantity),
      );
      await page.keyboard.press('PageUp');
      await page.keyboard.press('ArrowUp');
      expect(await domRows()).toBeLessThan(80);
      await page.keyboard.press('Home');
      await table.locator('tr[aria-rowindex="2"]').waitFor();

      // Filters: failed orders only, each with its reason.
      await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('FAILED');
      const failed = orders.filter((o) => o.status === 'FAILED');
      await page
        .getByText(`Showing ${failed.length.toLocaleString('en-US')} of 10,000 orders`)
        .waitFor();
      const firstFailed = table.locator('tr.failed').first();
      expect(await firstFailed.locator('td.reason').textContent()).toBe(failed[0]!.status_reason);
      await screenshot(page, 'versions-13-filtered-failed');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
