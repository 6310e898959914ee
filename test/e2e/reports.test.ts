import { readFileSync } from 'node:fs';
import { describe, expect } from 'vitest';
import { ORDER_REPORT_COLUMNS } from '../../electron/core/reports/columns';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { openStrategyTab, useVersionsE2E } from '../support/e2e-versions-setup';
import { syntheticVersion } from '../support/e2e-versions-synthetic';
import { itNeeds } from '../support/system-parts';
import { parseCsv } from '../support/rfc4180';

/** The Reports tab in Chromium: a version, a strategy, a date range; progress and the saved path. */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

const csvAt = (path: string) => parseCsv(readFileSync(path, 'utf8'));
const col = (name: (typeof ORDER_REPORT_COLUMNS)[number]) => ORDER_REPORT_COLUMNS.indexOf(name);

describe('the Reports tab', () => {
  withChromium('exports a version, the strategy and a date range, with their paths', async () => {
    const { profileId } = e2e();
    const desk = e2e().harness.desk;
    // A large version of Core Equity, so the export shows its progress on the way.
    const big = syntheticVersion(DEMO_STRATEGY_IDS.coreEquity, 12_000);
    desk.store.versions.upsert(profileId, big, { origin: 'imported' });

    const page = await e2e().browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(e2e().host.url);
    await openStrategyTab(page, 'Core Equity', 'Reports');
    const form = page.getByRole('form', { name: 'Export orders' });

    // One version: the big one, chosen from the known versions.
    await form.getByLabel('Version', { exact: true }).selectOption(big.id);
    await form.getByRole('button', { name: 'Export CSV' }).click();
    const path = form.getByTestId('export-path');
    await path.waitFor();
    const versionCsv = csvAt((await path.textContent())!.trim());
    expect(versionCsv.length - 1).toBe(12_000);
    expect(new Set(versionCsv.slice(1).map((r) => r[col('order_id')]))).toEqual(
      new Set(big.orders!.map((o) => o.id)),
    );
    expect(await form.getByText('Saved 12,000 orders').count()).toBe(1);
    await screenshot(page, 'reports-01-version-exported');

    // The strategy: every known version's orders.
    await form.getByLabel('Every known version of Core Equity').check();
    await form.getByRole('button', { name: 'Export CSV' }).click();
    await form.getByText(/Saved [\d,]+ orders/).waitFor();
    const known = await desk.versions.list({ profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity });
    let expected = 0;
    for (const v of known) {
      expected += (
        await desk.versions.get({
          profileId,
          strategyId: DEMO_STRATEGY_IDS.coreEquity,
          versionId: v.id,
        })
      ).orders.length;
    }
    const strategyCsv = csvAt((await path.textContent())!.trim());
    expect(strategyCsv.length - 1).toBe(expected);

    // A date range: refused when the last day comes first, then across strategies.
    await form.getByLabel(/Versions executed in a date range/).check();
    await form.getByLabel('From').fill('2026-03-10');
    await form.getByLabel('To (included)').fill('2026-03-01');
    await form.getByRole('button', { name: 'Export CSV' }).click();
    await form.getByText('The last day comes before the first day.').waitFor();
    expect(await form.getByLabel('To (included)').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'reports-02-range-refused');

    // From 2019 to a year ahead: the demo versions of two strategies and the 2020 synthetic one.
    await form.getByLabel('From').fill('2019-12-01');
    const nextYear = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
    await form.getByLabel('To (included)').fill(nextYear);
    await form.getByRole('button', { name: 'Export CSV' }).click();
    await form.getByText(/Saved [\d,]+ orders/).waitFor();
    await expect
      .poll(() => path.textContent())
      .toMatch(new RegExp(`orders-2019-12-01-to-${nextYear}\\.csv$`));
    const rangeCsv = csvAt((await path.textContent())!.trim());
    const strategies = new Set(rangeCsv.slice(1).map((r) => r[col('strategy_id')]));
    expect(strategies).toEqual(
      new Set([DEMO_STRATEGY_IDS.coreEquity, DEMO_STRATEGY_IDS.dividendGrowth]),
    );
    expect(rangeCsv.length - 1).toBeGreaterThan(12_000);
    await screenshot(page, 'reports-03-range-exported');
    expect(problems).toEqual([]);
    await page.close();
  });
});
