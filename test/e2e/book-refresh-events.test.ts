import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * A refresh of the whole book reaches the painted rows by the desk's events alone: the button's
 * `book.refresh` is the one book call, whatever its progress and end announce. In an order a
 * refresh moves (by the time each strategy was synced) the rows in view are read again, as they
 * must. Chromium against the browser host, the real desk, the sandbox over HTTP and SQLite.
 */
const withChromium = itNeeds(chromiumPart);
let app: AppE2E | undefined;

beforeAll(async () => {
  if (chromiumPart.available) app = await openAppE2E({ stepMs: 0 });
}, 120_000);
afterAll(async () => app?.close());

/** The book channels the page asks from now on (`book.refresh`, `book.rows`, `book.summary`...). */
function bookCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'POST' || !path.startsWith('/api/book.')) return;
    calls.push(path.slice('/api/'.length));
  });
  return calls;
}

/** Each shown row's strategy with the instant it was last synced (the Synced cell's title). */
function syncedTimes(page: Page): Promise<Record<string, string>> {
  return page
    .getByRole('table', { name: 'Book' })
    .locator('tbody tr.row[data-strategy]')
    .evaluateAll((rows) =>
      Object.fromEntries(
        rows.map((row) => [
          row.getAttribute('data-strategy') ?? '',
          row.querySelector('td.synced')?.getAttribute('title') ?? '',
        ]),
      ),
    );
}

/** Clicks "Refresh all", waits for its end, and for every row shown to carry a later sync. */
async function refreshAll(page: Page): Promise<void> {
  const before = await syncedTimes(page);
  await page.getByRole('button', { name: /^Refresh all \d+$/ }).click();
  await page
    .getByRole('status', { name: 'Refreshing the book' })
    .getByText(/^Refreshed (\d+) of \1\.$/)
    .waitFor({ timeout: 30_000 });
  await expect
    .poll(async () => {
      const after = await syncedTimes(page);
      return Object.keys(before).every((id) => (after[id] ?? '') > before[id]!);
    })
    .toBe(true);
}

describe('a refresh of the whole book on screen', () => {
  withChromium(
    'paints every row it read from its events, reading the book again only in an order it moves',
    async () => {
      const { harness, profileId } = app!;
      // The rows worked out for the first time are told once (new: in every order), before the
      // page opens: what the page hears afterwards is the refresh's alone.
      await harness.desk.book.rows({
        profileId,
        query: { search: '', flags: [], tag: null, sort: 'name', descending: false },
        offset: 0,
        limit: 1,
      });
      await harness.waitFor(
        (e) => e.type === 'book-rows-changed' && e.placesMoved.includes('name'),
      );
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      const rows = page.getByRole('table', { name: 'Book' }).locator('tbody tr.row[data-strategy]');
      await rows.first().waitFor();
      expect(await rows.count()).toBeGreaterThan(1);

      // In the book's order by name: the refresh is the one call, its end included. Quiet for
      // longer than the book waits before it reads the rows in view again (300 ms).
      const byName = bookCalls(page);
      await refreshAll(page);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(byName).toEqual(['book.refresh']);

      // Sorted by the time each was synced, a refresh moves rows across the view: read again.
      await page.getByLabel('Sort by').selectOption('synced');
      await rows.first().waitFor();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const bySynced = bookCalls(page);
      await refreshAll(page);
      await expect.poll(() => bySynced.includes('book.rows')).toBe(true);
      expect(bySynced[0]).toBe('book.refresh');
      expect(bySynced).not.toContain('book.summary');
      expect(problems).toEqual([]);
    },
    90_000,
  );
});
