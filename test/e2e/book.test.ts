import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  DEMO_BOOK_STRATEGY_IDS as BOOK,
  DEMO_BOOK_VERSION_IDS as BOOK_VERSIONS,
  DEMO_STRATEGY_IDS as DEMO,
  DEMO_VERSION_IDS as DEMO_VERSIONS,
} from '../../electron/sandbox';
import { BOOK_CSV_COLUMNS, HOLDINGS_CSV_COLUMNS } from '../../electron/core/book/export';
import type { BookJob } from '../../shared/book/views';
import { sandboxAdmin } from '../support/desk-harness';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { parseCsv } from '../support/rfc4180';

/**
 * The book end to end, in Chromium against the browser host, the real desk, the sandbox over HTTP
 * and SQLite: the demo book added from pasted ids, refreshed against a rate-limited sandbox with
 * one strategy failing, every flag found, a search by held symbol and its exposure, tags and
 * filters, both exports checked, and a strategy opened from its row.
 */
const withChromium = itNeeds(chromiumPart);

const book = (page: Page) => page.getByRole('table', { name: 'Book' });
/** The names of the rows the book shows now (in its order). */
const shownNames = (page: Page) =>
  book(page)
    .locator('tbody tr.row[data-strategy] td.name')
    .evaluateAll((tds) => tds.map((td) => td.textContent?.trim() ?? ''));
const chip = (page: Page, name: RegExp) =>
  page.getByRole('group', { name: 'Filter by flag' }).getByRole('button', { name });

async function expectShown(page: Page, names: string[]): Promise<void> {
  await expect.poll(() => shownNames(page), { timeout: 15_000 }).toEqual(names);
}

describe('the book', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'bulk-adds the demo book, refreshes it rate-limited, finds every flag, tags, exports',
    async () => {
      const { harness, profileId } = app!;
      const desk = harness.desk;
      const base = harness.sandbox()!.baseUrl;
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(app!.host.url).origin,
      });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);

      // The book is the profile's first screen: the three strategies "Try the sandbox" added.
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      await expectShown(page, ['Core Equity', 'Dividend Growth', 'Fresh Start']);

      // Add many: the rest of the demo book pasted from a spreadsheet, with what such a paste
      // carries (a BOM, a header, quotes, spaces, capitals, a duplicate, a stray line, an id of
      // another organization).
      await page.getByRole('button', { name: 'Add many' }).click();
      const panel = page.getByRole('region', { name: 'Add many strategies' });
      // A spreadsheet saved as such (a zip) is refused in words, before anything is sent.
      await panel.getByLabel('Choose a file…').setInputFiles({
        name: 'book.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00]),
      });
      await panel
        .getByRole('alert')
        .getByText(/book\.xlsx: This file is not text/)
        .waitFor();
      const ids = Object.values(BOOK);
      const pasted = [
        '\ufeffStrategy ID\tTheme',
        ...ids.map((id, i) => (i % 2 ? ` "${id.toUpperCase()}"\tx` : `${id}\t y`)),
        '',
        `${ids[0]}\tagain`,
        `${DEMO.coreEquity}\tcore`,
        `${DEMO.otherFund}\tother`,
        'see the attached list\t',
      ].join('\r\n');
      await panel.getByLabel('Strategy ids to add').fill(pasted);
      await panel.getByRole('button', { name: 'Add', exact: true }).click();
      await panel.getByText(/^Read 9 of 9 · 1 failed\.$/).waitFor({ timeout: 30_000 });
      const outcomes = panel.getByRole('list', { name: 'Outcomes' });
      for (const line of [
        '8 Added',
        '1 Already in the app',
        '1 Not found',
        '1 Not an id',
        '1 Duplicate',
        '1 Header',
      ])
        await outcomes.getByText(line, { exact: true }).waitFor();
      const table = panel.getByRole('table', { name: 'Outcome of each line' });
      await table.locator('tr[data-outcome="not-found"]').getByText(DEMO.otherFund).waitFor();
      await table
        .locator('tr[data-outcome="duplicate"]')
        .getByText('The same id as line 2')
        .waitFor();
      await panel.getByRole('button', { name: 'Copy outcomes' }).click();
      await panel.getByText('Copied 13 lines with their outcomes.').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      // In the screen's words, as the table shows them.
      expect(copied.split('\n')[0]).toBe('Line\tValue\tOutcome\tDetail');
      expect(copied).toContain(`\t${ids[1]!.toUpperCase()}\tAdded\t`);
      expect(copied).toContain(`\t${DEMO.otherFund}\tNot found\t`);
      await screenshot(page, 'book-01-added-many');

      // A second add in the same panel: its own outcomes, no error about the first add's.
      await panel.getByLabel('Strategy ids to add').fill([ids[0], ids[1]].join('\n'));
      await panel.getByRole('button', { name: 'Add', exact: true }).click();
      await outcomes.getByText('2 Already in the app', { exact: true }).waitFor();
      await expect.poll(() => table.locator('tr[data-outcome="already-added"]').count()).toBe(2);
      await expect.poll(() => table.locator('tr[data-outcome]').count()).toBe(2);
      expect(await panel.getByText('This is not in the app.').count()).toBe(0);
      expect(await panel.locator('.error-note, [role="alert"]').count()).toBe(0);
      await panel.getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => shownNames(page)).toHaveLength(11);

      // The versions a manager knows of (imported by id), an execution whose answer was lost,
      // and a strategy last read two days ago.
      for (const [strategyId, versionId] of [
        [DEMO.dividendGrowth, DEMO_VERSIONS.dividendGrowthScheduled],
        [BOOK.incomePlus, BOOK_VERSIONS.incomePlusExecuted],
        [BOOK.techLeaders, BOOK_VERSIONS.techLeadersExecuted],
        [BOOK.smallCapGrowth, BOOK_VERSIONS.smallCapGrowthFailed],
        [BOOK.globalGrowth, BOOK_VERSIONS.globalGrowthKnown],
        [BOOK.bondLadder, BOOK_VERSIONS.bondLadderExecuted],
      ] as const)
        await desk.versions.import({ profileId, strategyId, versionId });
      const draft = await desk.drafts.create({
        profileId,
        strategyId: BOOK.bondLadder,
        name: 'Lost answer',
        start: 'target',
      });
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
      await desk.versions.execute({ draftId: draft.id }).catch(() => undefined);

      // Refresh all against a sandbox that allows 3 reads a second, and fails Balanced
      // Retirement's every time.
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', {
        api_rate_limit: { limit: 3, window_s: 1 },
        fail_strategies: [BOOK.balancedRetirement],
        fail_status: 500,
      });
      await page.getByRole('button', { name: 'Refresh all 11' }).click();
      const progress = page.getByRole('status', { name: 'Refreshing the book' });
      await progress.getByRole('button', { name: 'Cancel' }).waitFor();
      await screenshot(page, 'book-02-refreshing');
      // The screen stays usable meanwhile: a search answers while the reads go on.
      await page.getByLabel('Search by name, id or held symbol').fill('ladder');
      await expectShown(page, ['Bond Ladder']);
      await page.getByLabel('Search by name, id or held symbol').fill('');
      await progress.getByText(/^Refreshed 11 of 11 · 1 failed\.$/).waitFor({ timeout: 90_000 });
      await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
      const jobs = harness.events.flatMap((e) =>
        e.type === 'book-job-changed' && e.job.kind === 'refresh' ? [e.job as BookJob] : [],
      );
      // The sandbox's 429s slowed the queue down: it waited for Retry-After, fewer at a time.
      expect(jobs.some((j) => j.waitingUntil !== null)).toBe(true);
      expect(Math.min(...jobs.map((j) => j.concurrency))).toBeLessThan(4);
      const raw = new Database(desk.store.path);
      raw
        .prepare('UPDATE strategies SET synced_at = ? WHERE profile_id = ? AND id = ?')
        .run(new Date(Date.now() - 2 * 86_400_000).toISOString(), profileId, DEMO.freshStart);
      raw.close();
      await screenshot(page, 'book-03-refreshed');

      // Every flag, each where the demo data puts its cause.
      const flags: [RegExp, string[]][] = [
        [/^Failed \d/, ['Income Plus', 'Small Cap Growth']],
        [/^Liquidate-only \d/, ['Legacy Balanced', 'Small Cap Growth']],
        [/^Unexecuted version \d/, ['Dividend Growth']],
        [/^Needs attention \d/, ['Bond Ladder']],
        // Bond Ladder too: the execution whose answer was lost did happen, and changed it.
        [/^Changed elsewhere \d/, ['Bond Ladder', 'Global Growth']],
        [/^Refresh failed \d/, ['Balanced Retirement']],
        [/^Not synced \d/, ['Fresh Start']],
      ];
      for (const [name, names] of flags) {
        await chip(page, name).click();
        await expectShown(page, names);
        await expect.poll(() => chip(page, name).getAttribute('aria-pressed')).toBe('true');
        if (names[0] !== 'Balanced Retirement') continue;
        // The failure stands on its row, with the reason.
        const failedRow = book(page).locator(`tr[data-strategy="${BOOK.balancedRetirement}"]`);
        expect(await failedRow.locator('.reason').textContent()).toMatch(/service/i);
        await screenshot(page, 'book-04-refresh-failed');
      }
      await chip(page, /^Not synced \d/).click();
      await chip(page, /^Flagged \d/).click();
      await expectShown(page, [
        'Balanced Retirement',
        'Bond Ladder',
        'Dividend Growth',
        'Fresh Start',
        'Global Growth',
        'Income Plus',
        'Legacy Balanced',
        'Small Cap Growth',
      ]);
      await chip(page, /^Flagged \d/).click();

      // Search by held symbol, then the symbol's exposure from a row.
      await page.getByLabel('Search by name, id or held symbol').fill('tsla');
      await expectShown(page, ['Global Growth', 'Small Cap Growth']);
      await book(page)
        .locator(`tr[data-strategy="${BOOK.smallCapGrowth}"]`)
        .getByRole('button', { name: 'Exposure to TSLA' })
        .click();
      const exposure = page.getByRole('region', { name: 'Exposure to TSLA' });
      await exposure
        .getByTestId('exposure-summary')
        .getByText(/Held by 2 strategies/)
        .waitFor();
      const exposureRows = await exposure
        .getByRole('table', { name: 'Exposure to TSLA' })
        .locator('tbody tr.row')
        .evaluateAll((trs) =>
          trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
        );
      expect(exposureRows.map((r) => [r[0], r[2], r[3]])).toEqual([
        ['Global Growth', '—', 'Changed elsewhere'],
        ['Small Cap Growth', '20', 'Known'],
      ]);
      await screenshot(page, 'book-05-exposure');
      await exposure.getByRole('button', { name: 'Close' }).click();
      await page.getByLabel('Search by name, id or held symbol').fill('');

      // Tags: the growth strategies chosen and tagged, then the book filtered by the tag.
      await expect.poll(() => shownNames(page)).toHaveLength(11);
      for (const name of ['Global Growth', 'Small Cap Growth', 'Tech Leaders'])
        await page.getByRole('checkbox', { name: `Choose ${name}` }).check();
      const chosen = page.getByRole('group', { name: 'Chosen strategies' });
      await chosen.getByText('3 strategies chosen').waitFor();
      await chosen.getByLabel('Tag').fill('Growth');
      await chosen.getByRole('button', { name: 'Add tag' }).click();
      await chosen.getByText('Tagged 3 strategies “Growth”.').waitFor();
      await chosen.getByRole('button', { name: 'Clear choice' }).click();
      await page.getByLabel('Filter by tag').selectOption('Growth');
      await expectShown(page, ['Global Growth', 'Small Cap Growth', 'Tech Leaders']);
      await chip(page, /^Failed \d/).click();
      await expectShown(page, ['Small Cap Growth']);
      await screenshot(page, 'book-06-tag-and-flag');
      await chip(page, /^Failed \d/).click();
      await page.getByLabel('Filter by tag').selectOption('');
      await expect.poll(() => shownNames(page)).toHaveLength(11);

      // Both exports, checked cell by cell against the desk.
      const path = page.getByTestId('book-export-path');
      await page.getByRole('button', { name: 'Export' }).click();
      await page.getByRole('button', { name: 'Book as CSV' }).click();
      await page.getByText(/Saved 11 strategies as CSV/).waitFor();
      const [bookHeader, ...bookRows] = parseCsv(readFileSync((await path.textContent())!, 'utf8'));
      expect(bookHeader).toEqual([...BOOK_CSV_COLUMNS]);
      const col = (name: (typeof BOOK_CSV_COLUMNS)[number]) => BOOK_CSV_COLUMNS.indexOf(name);
      const byName = new Map(bookRows.map((r) => [r[col('name')], r]));
      expect(byName.get('Global Growth')![col('tags')]).toBe('Growth');
      expect(byName.get('Global Growth')![col('flag_changed_elsewhere')]).toBe('true');
      expect(byName.get('Balanced Retirement')![col('flag_refresh_failed')]).toBe('true');
      expect(byName.get('Balanced Retirement')![col('refresh_failure')]).toMatch(/service/i);
      expect(byName.get('Bond Ladder')![col('flag_attention')]).toBe('true');
      expect(byName.get('Small Cap Growth')![col('last_version_status')]).toBe('FAILED');

      await page.getByRole('button', { name: 'Export' }).click();
      await page.getByRole('button', { name: 'Holdings as CSV' }).click();
      await page.getByText(/Saved [\d,]+ holdings as CSV/).waitFor();
      // Each export keeps its own status: the book's file is still named beside the holdings'.
      await page.getByText(/Saved 11 strategies as CSV/).waitFor();
      const holdingsPath = page.getByTestId('book-holdings-export-path');
      expect(await holdingsPath.textContent()).not.toBe(await path.textContent());
      const [holdingsHeader, ...holdings] = parseCsv(
        readFileSync((await holdingsPath.textContent())!, 'utf8'),
      );
      expect(holdingsHeader).toEqual([...HOLDINGS_CSV_COLUMNS]);
      const h = (name: (typeof HOLDINGS_CSV_COLUMNS)[number]) => HOLDINGS_CSV_COLUMNS.indexOf(name);
      let expected = 0;
      for (const id of [...ids, DEMO.coreEquity, DEMO.dividendGrowth, DEMO.freshStart]) {
        const view = await desk.strategies.get({ profileId, strategyId: id });
        expected += view.holdings.length;
        const lines = holdings.filter((r) => r[h('strategy_id')] === id);
        expect(lines.map((r) => [r[h('symbol')], r[h('quantity')]])).toEqual(
          view.holdings.map((x) => [x.symbol, x.quantity]),
        );
      }
      expect(holdings).toHaveLength(expected);
      const smallTsla = holdings.find(
        (r) => r[h('strategy_id')] === BOOK.smallCapGrowth && r[h('symbol')] === 'TSLA',
      )!;
      expect(smallTsla[h('target_weight')]).toBe('20');
      await screenshot(page, 'book-07-exported');

      // A strategy opens from its row; the sidebar's Book comes back to the book.
      await book(page).getByRole('button', { name: 'Tech Leaders' }).click();
      await page.getByRole('heading', { name: 'Tech Leaders', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    240_000,
  );
});
