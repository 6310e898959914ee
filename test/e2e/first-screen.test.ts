import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * A profile's first screen, its book in the app's frame, in Chromium against the browser host:
 * what the page does on its way there (docs/book.md, The first screen).
 */
const withChromium = itNeeds(chromiumPart);

/**
 * Counts every locale formatter the page builds, and every call that builds one inside: the
 * first costs a page tens of milliseconds in Chromium (its locale data is loaded then).
 */
const COUNT_LOCALE_FORMATTING = `
  window.__localeUses = [];
  const note = (name) => window.__localeUses.push(name);
  for (const name of ['NumberFormat', 'DateTimeFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat']) {
    const Original = Intl[name];
    Intl[name] = new Proxy(Original, {
      construct(target, args) { note('Intl.' + name); return Reflect.construct(target, args); },
      apply(target, self, args) { note('Intl.' + name); return Reflect.apply(target, self, args); },
    });
  }
  for (const [owner, label, methods] of [
    [Number.prototype, 'Number', ['toLocaleString']],
    [Date.prototype, 'Date', ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']],
    [String.prototype, 'String', ['localeCompare']],
    [Array.prototype, 'Array', ['toLocaleString']],
  ]) {
    for (const method of methods) {
      const original = owner[method];
      owner[method] = function (...args) { note(label + '.' + method); return original.apply(this, args); };
    }
  }
`;

describe("a profile's first screen", () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 0 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'draws the book, its counts and the frame around it without building a locale formatter',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const problems = collectPageProblems(page);
      await page.addInitScript(COUNT_LOCALE_FORMATTING);
      await page.goto(app!.host.url);
      await page.getByTestId('book-count').getByText('3 strategies').waitFor();
      await page
        .getByRole('table', { name: 'Book' })
        .locator('tbody tr.row[data-strategy]')
        .first()
        .waitFor();
      // The frame around it: the status bar's figures (its latest sync among them) and the
      // sidebar's strategies, read once the book's rows are in.
      await page
        .getByRole('contentinfo', { name: 'Status' })
        .getByText(/Latest sync, all strategies \d/)
        .waitFor();
      await page
        .getByRole('navigation', { name: 'Strategies' })
        .getByRole('button', { name: /Core Equity/ })
        .waitFor();
      expect(await page.evaluate('window.__localeUses')).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
