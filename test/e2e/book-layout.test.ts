import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { addMany, createStrategies } from '../support/book';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The book's columns at the window sizes managers use, in Chromium against the browser host,
 * the real desk and the sandbox over HTTP: every column it sorts by in view at 1400×900, a
 * 96-character name shortened with the whole name on hover, no number cut, and the choice and
 * the name staying in view when a narrower window scrolls sideways.
 */
const withChromium = itNeeds(chromiumPart);
/** With " 1" after it (the sandbox numbers what it makes): a name of 96 characters. */
const LONG_PREFIX =
  'Global Multi-Asset Income and Growth Opportunities Portfolio for Long-Horizon Endowment Fund B';

/** Where each header and the scroller are, and what the long name's cell shows. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const table = document.querySelector('table[aria-label="Book"]')!;
    const scroller = table.closest('.scroller')!;
    const box = scroller.getBoundingClientRect();
    const headers = [...table.querySelectorAll('thead th')].map((th) => ({
      label: th.textContent!.trim(),
      right: th.getBoundingClientRect().right,
      left: th.getBoundingClientRect().left,
    }));
    const long = [...table.querySelectorAll<HTMLButtonElement>('td.name button')].find((b) =>
      b.textContent!.startsWith('Global Multi-Asset'),
    )!;
    const numbers = [...table.querySelectorAll<HTMLElement>('tbody td.num')];
    return {
      scrollerRight: box.right,
      sideways: scroller.scrollWidth - scroller.clientWidth,
      headers,
      longTitle: long.title,
      longCut: long.scrollWidth > long.clientWidth,
      longCellWidth: long.closest('td')!.getBoundingClientRect().width,
      numbersCut: numbers.filter((td) => td.scrollWidth > td.clientWidth).length,
      numbers: numbers.length,
    };
  });

describe('the book’s columns', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium('fit at 1400×900, a long name shortened, the name kept when scrolled', async () => {
    const { harness, profileId } = app!;
    const { ids } = await createStrategies(harness.sandbox()!.baseUrl, {
      count: 1,
      holdings: 5,
      name_prefix: LONG_PREFIX,
    });
    await addMany(harness, profileId, ids);
    const name = `${LONG_PREFIX} 1`;
    expect(name).toHaveLength(96);

    const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(app!.host.url);
    await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
    await page.getByRole('table', { name: 'Book' }).getByTitle(name, { exact: true }).waitFor();
    await screenshot(page, 'book-layout-1400');

    const wide = await measure(page);
    expect(wide.sideways).toBe(0);
    for (const header of wide.headers)
      expect(header.right, header.label).toBeLessThanOrEqual(wide.scrollerRight);
    expect(wide.headers.map((h) => h.label)).toEqual(
      expect.arrayContaining(['Strategy', 'Model', 'Flags', 'Synced', 'Holdings']),
    );
    expect(wide.longTitle).toBe(name);
    expect(wide.longCut).toBe(true);
    expect(wide.longCellWidth).toBeLessThan(260);
    expect(wide.numbers).toBeGreaterThan(0);
    expect(wide.numbersCut).toBe(0);

    // A narrower window scrolls sideways; the choice and the name stay where they were.
    await page.setViewportSize({ width: 1024, height: 700 });
    const before = await measure(page);
    expect(before.sideways).toBeGreaterThan(0);
    await page.evaluate(() => {
      document.querySelector('table[aria-label="Book"]')!.closest('.scroller')!.scrollLeft = 400;
    });
    const after = await measure(page);
    const at = (m: typeof before, label: string) => m.headers.find((h) => h.label === label)!.left;
    expect(at(after, 'Strategy')).toBe(at(before, 'Strategy'));
    expect(at(after, 'Tags')).toBeLessThan(at(before, 'Tags'));
    await screenshot(page, 'book-layout-1024-scrolled');
    expect(problems).toEqual([]);
  });
});
