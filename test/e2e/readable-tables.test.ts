import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS, HALTED_SYMBOL } from '../../electron/sandbox';
import type { Version } from '../../shared/domain/resources';
import type { VersionDetail } from '../../shared/views';
import { sandboxAdmin } from '../support/desk-harness';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { layoutOf } from '../support/e2e-layout';
import {
  decimalPoints,
  longDecimalsVersion,
  misaligned,
  scrollToFarRight,
} from '../support/e2e-readable';
import { executeDraft, openStrategyTab } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/**
 * Every screen read at 1400×900 and 1024×700, light and dark, with the scrollbars a window
 * draws: no number, date, symbol or id cut anywhere (a HALTED failed version's orders, long
 * decimals, seven-digit values), decimal points lined up, a table too wide for the window
 * scrolling sideways with a visible scrollbar and its symbols in view, and the layout items of
 * the walk (the drafts list, "Execute again", the two sync times, "NOT EXECUTED").
 */
const withChromium = itNeeds(chromiumPart);
const SIZES = [
  { width: 1400, height: 900 },
  { width: 1024, height: 700 },
] as const;
const { coreEquity: CORE, freshStart: FRESH } = DEMO_STRATEGY_IDS;

let e2e: AppE2E | undefined;
let failed: VersionDetail;
let executedBefore: VersionDetail;
let unexecuted: Version;
let long: Version;

/** Waits until the desk saw a version's rebalance end. */
const ended = (versionId: string) =>
  e2e!.harness.waitFor(
    (e) => e.type === 'version-status-changed' && e.versionId === versionId && e.ended === true,
  );

beforeAll(async () => {
  if (!chromiumPart.available) return;
  e2e = await openAppE2E({ stepMs: 10, scrollbars: true });
  const { desk } = e2e.harness;
  const profileId = e2e.profileId;
  const base = e2e.harness.sandbox()!.baseUrl;

  // A draft executed before (its confirmation offers "Execute again"), then one whose answer
  // never came (a journal notice), then five more: seven drafts.
  executedBefore = await executeDraft(e2e, CORE, (rows) =>
    rows.map((r) => (r.symbol === 'MSFT' ? { ...r, weight: '14' } : r)),
  );
  await ended(executedBefore.id);
  const unclear = await desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'Unclear',
    start: 'target',
  });
  await desk.drafts.saveRows({
    draftId: unclear.id,
    rows: unclear.rows.map((r) => (r.symbol === 'MSFT' ? { ...r, weight: '13' } : r)),
  });
  await sandboxAdmin(base, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
  await expect(desk.versions.execute({ draftId: unclear.id })).rejects.toMatchObject({
    kind: expect.any(String),
  });
  const longDraft = await desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'Long decimals',
    start: 'target',
  });
  await desk.drafts.saveRows({
    draftId: longDraft.id,
    rows: longDraft.rows.map((r, i) => ({ ...r, weight: i % 2 ? '12.3456789012' : '0.5' })),
  });
  for (let i = 1; i <= 4; i++)
    await desk.drafts.create({ profileId, strategyId: CORE, name: `Idea ${i}`, start: 'target' });

  // A version never executed (the service sends no status for it), imported by id.
  unexecuted = (
    (await sandboxAdmin(base, 'POST', `/sandbox/strategies/${CORE}/unexecuted-versions`, {})) as {
      data: Version;
    }
  ).data;
  await desk.versions.import({ profileId, strategyId: CORE, versionId: unexecuted.id });
  // Two thousand orders of long decimals and seven-digit values.
  long = longDecimalsVersion(CORE, 2000);
  desk.store.versions.upsert(profileId, long, { origin: 'imported' });

  // HALTED never fills: the rebalance FAILS, its order with a reason.
  failed = await executeDraft(
    e2e,
    FRESH,
    () => [
      { symbol: 'AAPL', weight: '33.3333', locked: false },
      { symbol: 'MSFT', weight: '50', locked: false },
      { symbol: HALTED_SYMBOL, weight: '10', locked: false },
    ],
    'empty',
  );
  await ended(failed.id);
}, 180_000);
afterAll(async () => e2e?.close());

/** What every screen must hold: nothing cut, nothing pushed out sideways, scrollers that show. */
async function expectReadable(page: Page, name: string, show?: Locator) {
  if (show) await show.scrollIntoViewIfNeeded();
  await screenshot(page, name);
  const layout = layoutOf(page);
  expect(await layout.cutText(), `${name}: text cut short`).toEqual([]);
  expect(await layout.sideways(), `${name}: the page scrolls sideways`).toBe(false);
  for (const s of await layout.overflowingScrollers()) {
    if (s.sideways)
      expect(s.scrollbarHeight, `${name}: ${s.name} scrolls sideways unseen`).toBeGreaterThan(7);
    else expect(s.scrollbarWidth, `${name}: ${s.name} scrolls unseen`).toBeGreaterThan(7);
  }
}

/** Every numeric column of a table lines up on its decimal points. */
async function expectAligned(table: Locator, name: string) {
  const columns = await decimalPoints(table);
  expect(Object.keys(columns).length, `${name}: numeric columns`).toBeGreaterThan(0);
  for (const [column, points] of Object.entries(columns))
    expect(misaligned(points), `${name}: ${column} decimal points`).toEqual([]);
}

async function openVersion(page: Page, strategy: string, versionId: string) {
  await openStrategyTab(page, strategy, 'Versions');
  await page.getByRole('button', { name: `Open version ${versionId.slice(0, 8)}` }).click();
  const orders = page.getByRole('table', { name: `Orders of version ${versionId}` });
  await orders.locator('tbody tr.row').first().waitFor();
  return orders;
}

describe('readable tables', () => {
  withChromium(
    'every screen at both sizes, light and dark: no number, date, symbol or id cut',
    async () => {
      for (const size of SIZES) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await e2e!.browser.newContext({ viewport: size, colorScheme });
          const page = await context.newPage();
          const problems = collectPageProblems(page);
          const name = (screen: string) => `readable-${size.width}-${colorScheme}-${screen}`;
          await page.goto(e2e!.host.url);

          await openStrategyTab(page, 'Core Equity', 'Overview');
          const holdings = page.getByRole('table', { name: 'Holdings' });
          await holdings.locator('tbody tr.row').first().waitFor();
          await expectReadable(page, name('01-overview'));
          await expectAligned(holdings, 'holdings');

          // Seven drafts: all in view, or a list that visibly scrolls and says so.
          await page.getByRole('tab', { name: 'Drafts' }).click();
          const drafts = page.getByRole('table', { name: 'Drafts' });
          await drafts.getByRole('button', { name: 'Long decimals' }).click();
          await page.getByRole('heading', { name: 'Long decimals', level: 2 }).waitFor();
          await page.getByRole('region', { name: 'Executions with an unknown outcome' }).waitFor();
          const list = await drafts.evaluate((t) => {
            const scroller = t.parentElement!.getBoundingClientRect();
            const rows = [...t.querySelectorAll('tbody tr')];
            return {
              rows: rows.length,
              inView: rows.filter((tr) => {
                const r = tr.getBoundingClientRect();
                return r.top >= scroller.top - 0.5 && r.bottom <= scroller.bottom + 0.5;
              }).length,
            };
          });
          expect(list.rows).toBe(7);
          if (list.inView < list.rows)
            await expect
              .poll(() => page.getByTestId('drafts-scroll-hint').textContent())
              .toBe('scroll for all 7');
          await expectReadable(page, name('02-drafts'));
          await expectAligned(page.getByRole('grid', { name: 'Draft rows' }), 'draft grid');

          // A draft executed before: "Execute again" on one line, the id shortened in its words
          // and whole in its name.
          await drafts.getByRole('button', { name: `e2e target` }).click();
          await page.getByRole('button', { name: 'Execute…' }).click();
          const dialog = page.getByRole('dialog');
          const again = dialog.getByRole('button', {
            name: `Execute again (this draft already became version ${executedBefore.id})`,
          });
          await again.waitFor();
          const words = (await again.textContent())!.trim();
          expect(words).toBe(`Execute again (already version ${executedBefore.id.slice(0, 8)}…)`);
          expect(await again.getAttribute('title')).toContain(executedBefore.id);
          const lines = await again.evaluate((b) => {
            const range = document.createRange();
            range.selectNodeContents(b);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          });
          expect(lines, '"Execute again" on one line').toBe(1);
          await expectReadable(page, name('03-confirm-again'));
          await expectAligned(dialog.getByRole('table', { name: 'Changes' }), 'confirmation');
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'hidden' });

          // The versions: an unexecuted one reads NOT EXECUTED, never UNKNOWN.
          await openStrategyTab(page, 'Core Equity', 'Versions');
          const versions = page.getByRole('table', { name: 'Versions, newest first' });
          const line = versions.getByRole('row').filter({
            has: page.getByRole('button', { name: `Open version ${unexecuted.id.slice(0, 8)}` }),
          });
          await line.getByText('NOT EXECUTED', { exact: true }).waitFor();
          expect(await versions.getByText('UNKNOWN').count()).toBe(0);
          await expectReadable(page, name('04-versions'));

          for (const id of [long.id, executedBefore.id])
            await page.getByRole('checkbox', { name: `Compare version ${id.slice(0, 8)}` }).check();
          await page.getByRole('button', { name: /^Compare selected/ }).click();
          const compare = page.getByRole('table', { name: 'Compare versions' });
          await compare.locator('tbody tr').first().waitFor();
          await expectReadable(page, name('05-compare'), compare);
          await expectAligned(compare, 'compare');
          await page.getByRole('button', { name: 'Close comparison' }).click();

          await line.getByRole('button', { name: /^Open version/ }).click();
          await page.getByText('This version has not been executed').waitFor();
          const bar = page.locator('#version-title').locator('..');
          expect(await bar.getByText('NOT EXECUTED', { exact: true }).count()).toBe(1);
          await page.getByRole('button', { name: '← All versions' }).click();

          // Two thousand orders of long decimals: lined up, and at 1024 scrolled sideways with
          // the symbols in view.
          const orders = await openVersion(page, 'Core Equity', long.id);
          await expectReadable(page, name('06-long-orders'), orders);
          await expectAligned(orders, 'orders');
          await expectAligned(page.getByRole('table', { name: /^Totals/ }), 'totals');
          await expectAligned(page.getByRole('table', { name: /^Positions/ }), 'positions');
          const wide = await orders.evaluate(
            (t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1,
          );
          if (size.width === 1024) expect(wide, 'orders wider than a 1024 window').toBe(true);
          if (wide) {
            const right = await scrollToFarRight(orders);
            expect(right.scrolled).toBeGreaterThan(0);
            expect(right.symbolCount).toBeGreaterThan(0);
            expect(right.symbolsInView, 'symbols in view, scrolled sideways').toBe(true);
            expect(right.onTop, 'the symbol drawn over the cells scrolled under it').toBe(true);
            await expectReadable(page, name('06-long-orders-scrolled'), orders);
          }

          // The HALTED failed version: its orders whole, the reason too.
          const halted = await openVersion(page, 'Fresh Start', failed.id);
          await halted.locator('tr.failed').filter({ hasText: HALTED_SYMBOL }).waitFor();
          await expectReadable(page, name('07-failed-orders'), halted);
          await expectAligned(halted, 'failed orders');

          await page.getByRole('tab', { name: 'Activity' }).click();
          const activity = page.getByRole('table', { name: 'Activity' });
          await activity.locator('tbody tr.row[data-seq]').first().waitFor();
          await expectReadable(page, name('08-activity'));
          await page.getByRole('button', { name: 'Profile activity' }).click();
          await page
            .getByRole('table', { name: 'Activity' })
            .locator('tr.row[data-seq]')
            .first()
            .waitFor();
          await expectReadable(page, name('09-profile-activity'));
          await page.getByRole('button', { name: 'Profile activity' }).click();

          await openStrategyTab(page, 'Fresh Start', 'Reports');
          await page.getByRole('form', { name: 'Export orders' }).waitFor();
          await expectReadable(page, name('10-reports'));
          await page.getByRole('button', { name: 'Profile settings' }).click();
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await expectReadable(page, name('11-profile'));

          expect(problems).toEqual([]);
          await context.close();
        }
      }
    },
    300_000,
  );

  withChromium(
    'where scrollbars overlay the content (as on macOS), an area that scrolls still shows its bar',
    async () => {
      // Chromium's mobile emulation draws overlay scrollbars: hidden until used, as on macOS.
      const context = await e2e!.browser.newContext({
        viewport: { width: 1024, height: 700 },
        isMobile: true,
      });
      const page = await context.newPage();
      const problems = collectPageProblems(page);
      await page.goto(e2e!.host.url);
      const bar = async (name: string) =>
        (await layoutOf(page).overflowingScrollers()).find((s) => s.name.startsWith(name));

      const orders = await openVersion(page, 'Core Equity', long.id);
      await orders.scrollIntoViewIfNeeded();
      const table = await bar(`Orders of version ${long.id}`);
      expect(table?.sideways, 'the orders scroll sideways at 1024').toBe(true);
      expect(table!.scrollbarHeight, 'their scrollbar shows').toBeGreaterThan(7);
      await screenshot(page, 'readable-1024-light-13-overlay-scrollbars');

      await page.getByRole('tab', { name: 'Drafts' }).click();
      await page.getByRole('table', { name: 'Drafts' }).waitFor();
      const list = await bar('Drafts list');
      expect(list?.sideways).toBe(false);
      expect(list!.scrollbarWidth, "the drafts list's scrollbar shows").toBeGreaterThan(7);
      expect(problems).toEqual([]);
      await context.close();
    },
    60_000,
  );

  withChromium(
    "the header's sync time is the strategy's, the status bar's the newest of all: each says so",
    async () => {
      const page = await e2e!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      const problems = collectPageProblems(page);
      await page.goto(e2e!.host.url);
      // Fresh Start read from the service now: the newest sync of all.
      await openStrategyTab(page, 'Fresh Start', 'Overview');
      const header = page.locator('article.pane > header');
      const before = await header.locator('time').getAttribute('datetime');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(() => header.locator('time').getAttribute('datetime')).not.toBe(before);
      const newest = (await header.locator('time').getAttribute('datetime'))!;

      // Core Equity was read before: its header says when, the status bar says the newest.
      await openStrategyTab(page, 'Core Equity', 'Overview');
      const core = await e2e!.harness.desk.strategies.get({
        profileId: e2e!.profileId,
        strategyId: CORE,
      });
      expect(core.syncedAt < newest).toBe(true);
      await expect.poll(() => header.locator('time').getAttribute('datetime')).toBe(core.syncedAt);
      expect((await header.textContent())!.replace(/\s+/g, ' ')).toContain('This strategy synced');
      const sync = page.locator('footer [data-status-item="sync"]');
      await expect.poll(() => sync.locator('time').first().getAttribute('datetime')).toBe(newest);
      expect((await sync.textContent())!.replace(/\s+/g, ' ').trim()).toMatch(/^Latest sync \d/);
      expect(await sync.getAttribute('title')).toContain(
        "Each strategy's own time is in its header",
      );
      await screenshot(page, 'readable-1024-light-12-sync-times');
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
