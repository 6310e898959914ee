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

/**
 * Notes when the book's first row and the sidebar's first strategy come into the page, and when
 * each call to the app was made (its channel, from the host's `/api/<channel>`), in the page's
 * own clock.
 */
const NOTE_CALLS_AND_FIRST_ROW = `
  window.__calls = [];
  window.__firstRowAt = null;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const m = /\\/api\\/([\\w.]+)$/.exec(new URL(e.name).pathname);
      if (m) window.__calls.push({ channel: m[1], at: e.startTime });
    }
  }).observe({ type: 'resource', buffered: true });
  window.__sidebarAt = null;
  new MutationObserver(() => {
    if (window.__firstRowAt === null && document.querySelector('tr.row[data-strategy]'))
      window.__firstRowAt = performance.now();
    if (window.__sidebarAt === null && document.querySelector('nav[aria-label="Strategies"] li'))
      window.__sidebarAt = performance.now();
  }).observe(document, { subtree: true, childList: true });
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
      // sidebar's strategies, read once the book's rows are drawn.
      await page
        .getByRole('contentinfo', { name: 'Status' })
        .getByText(/Latest sync \d/)
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

  withChromium(
    'waits for one call to the app before its rows, and reads and draws the sidebar after them',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      await page.addInitScript(NOTE_CALLS_AND_FIRST_ROW);
      await page.goto(app!.host.url);
      const sidebar = page.getByRole('navigation', { name: 'Strategies' });
      await sidebar.getByRole('button', { name: /Core Equity/ }).waitFor();
      const { calls, firstRowAt, sidebarAt } = (await page.evaluate(
        '({ calls: window.__calls, firstRowAt: window.__firstRowAt, sidebarAt: window.__sidebarAt })',
      )) as { calls: { channel: string; at: number }[]; firstRowAt: number; sidebarAt: number };
      expect(firstRowAt).not.toBeNull();
      // Before the first row: the profiles and the book's first rows in one call (the status
      // bar's figures beside it), no list of profiles, no read of the book of its own.
      const before = calls.filter((c) => c.at < firstRowAt).map((c) => c.channel);
      expect(before).toContain('app.firstScreen');
      for (const channel of before) expect(['app.firstScreen', 'app.status']).toContain(channel);
      // The sidebar's strategies are asked for once the rows are drawn (reading and checking
      // them would hold the page as the rows are painted), and drawn after them.
      expect(calls.find((c) => c.channel === 'strategies.list')!.at).toBeGreaterThan(firstRowAt);
      expect(sidebarAt).toBeGreaterThan(firstRowAt);
      await page.close();
    },
  );
});
