import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MemorySecretStore } from '../../electron/core/secrets';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { sandboxAdmin } from '../support/desk-harness';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { gridRows, newDraft, openDraftsTab, pasteText } from '../support/e2e-drafts-env';
import { layoutOf, overlaps, within } from '../support/e2e-layout';
import { openStrategyTab } from '../support/e2e-versions-setup';
import { syntheticVersion } from '../support/e2e-versions-synthetic';
import { itNeeds } from '../support/system-parts';

/**
 * Every screen as a new manager meets it, at 1400×900 and at the smallest supported window,
 * 1024×700, light and dark, with the scrollbars a window draws: nothing clipped, no text cut
 * short, nothing overlapping, the draft grid with room. The keychain is unavailable here on
 * purpose, with the raw reason a Linux session gives.
 */
const withChromium = itNeeds(chromiumPart);
const DBUS_REASON = 'Cannot autolaunch D-Bus without X11 $DISPLAY';
const SIZES = [
  { width: 1400, height: 900, gridRows: 10 },
  { width: 1024, height: 700, gridRows: 6 },
] as const;
const CORE = DEMO_STRATEGY_IDS.coreEquity;
const FRESH = DEMO_STRATEGY_IDS.freshStart;

let e2e: AppE2E | undefined;
let synthetic: ReturnType<typeof syntheticVersion>;
/** A version executed from this app: its header's facts are the widest. */
let executedHere: ReturnType<typeof syntheticVersion>;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  e2e = await openAppE2E({
    stepMs: 10,
    secretStore: new MemorySecretStore(DBUS_REASON),
    scrollbars: true,
    // A service slower than this counts as not answering: offline.
    clientOptions: { timeouts: { connectMs: 800, requestMs: 800 }, retry: { attempts: 1 } },
  });
  const { desk } = e2e.harness;
  const profileId = e2e.profileId;
  // Nine drafts, the newest with forty rows.
  for (let i = 1; i <= 8; i++)
    await desk.drafts.create({ profileId, strategyId: CORE, name: `Idea ${i}`, start: 'target' });
  const big = await desk.drafts.create({
    profileId,
    strategyId: CORE,
    name: 'Big',
    start: 'target',
  });
  const extra = Array.from({ length: 40 - big.rows.length }, (_, i) => ({
    symbol: `X${String(i).padStart(2, '0')}`,
    weight: '0.25',
    locked: false,
  }));
  await desk.drafts.saveRows({ draftId: big.id, rows: [...big.rows, ...extra] });
  synthetic = syntheticVersion(FRESH, 300);
  desk.store.versions.upsert(profileId, synthetic, { origin: 'imported' });
  executedHere = syntheticVersion(CORE, 3);
  desk.store.versions.upsert(profileId, executedHere, { origin: 'created' });
}, 120_000);
afterAll(async () => e2e?.close());

/** No number, date, symbol or id cut short on the screen (see layoutOf().cutText). */
async function expectNothingCut(page: Page, screen: string) {
  expect(await layoutOf(page).cutText(), `${screen}: text cut short`).toEqual([]);
}

/** The status bar's labels: each whole, inside the window, none over another. */
async function expectStatusBarReadable(page: Page, size: { width: number; height: number }) {
  const items = await layoutOf(page).statusItems();
  expect(items.map((i) => i.name)).toEqual([
    'connection',
    'sync',
    'running',
    'attention',
    'keychain',
  ]);
  for (const item of items) {
    expect(within(item.box, size), `${item.name} inside the window`).toBe(true);
    expect(item.clipped, `${item.name} shows its whole text`).toBe(false);
  }
  for (let i = 1; i < items.length; i++)
    expect(overlaps(items[i - 1]!.box, items[i]!.box), `${items[i]!.name} overlaps`).toBe(false);
}

describe('small windows, light and dark', () => {
  withChromium(
    'every screen at 1400×900 and 1024×700: the grid has room, nothing clipped or overlapping',
    async () => {
      for (const size of SIZES) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const context = await e2e!.browser.newContext({
            viewport: { width: size.width, height: size.height },
            colorScheme,
          });
          const page = await context.newPage();
          const problems = collectPageProblems(page);
          const name = (screen: string) => `small-${size.width}-${colorScheme}-${screen}`;
          await page.goto(e2e!.host.url);

          // Overview, with the status bar: the keychain's raw reason only on hover. Only the
          // sandbox's public demo secret is kept: no keychain, and nothing to warn of.
          await openStrategyTab(page, 'Core Equity', 'Overview');
          await page.getByRole('table', { name: 'Holdings' }).waitFor();
          const status = page.getByRole('contentinfo', { name: 'Status' });
          expect(await status.getByText('Secret kept for this session only').count()).toBe(0);
          const keychain = status.getByText('No keychain', { exact: true });
          await keychain.waitFor();
          expect(await status.textContent()).not.toContain('D-Bus');
          expect(await keychain.getAttribute('title')).toContain(DBUS_REASON);
          await expectStatusBarReadable(page, size);
          await screenshot(page, name('1-overview'));
          await expectNothingCut(page, name('1-overview'));
          expect(await layoutOf(page).sideways(), name('1-overview') + ' scrolls sideways').toBe(
            false,
          );

          // Drafts: nine of them; the list stays in its bounded area and the editor has room.
          await page.getByRole('tab', { name: 'Drafts' }).click();
          await page
            .getByRole('table', { name: 'Drafts' })
            .getByRole('button', { name: 'Big' })
            .click();
          await page.getByRole('heading', { name: 'Big', level: 2 }).waitFor();
          await screenshot(page, name('2-drafts'));
          await expectNothingCut(page, name('2-drafts'));
          expect(await layoutOf(page).sideways(), name('2-drafts') + ' scrolls sideways').toBe(
            false,
          );
          const grid = await layoutOf(page).draftGrid();
          expect(grid.rowsInView, 'draft rows fully in view').toBeGreaterThanOrEqual(size.gridRows);
          for (const column of ['Lock', 'Remove'])
            expect(within(grid.header[column]!, grid.scroller), `${column} column in view`).toBe(
              true,
            );
          expect(grid.scroller.x + grid.scroller.width).toBeLessThanOrEqual(size.width);
          expect(grid.roomForScrollbar, 'the columns leave room for a scrollbar').toBe(true);
          expect(grid.clippedHeaders, 'column headers cut short').toEqual([]);

          // The confirmation of forty changes: its body scrolls, its buttons stay in the window.
          await page.getByRole('button', { name: 'Execute…' }).click();
          const dialog = page.getByRole('dialog');
          const cancel = dialog.getByRole('button', { name: 'Cancel' });
          await cancel.waitFor();
          await screenshot(page, name('2-confirm'));
          await expectNothingCut(page, name('2-confirm'));
          for (const button of [cancel, dialog.getByRole('button', { name: 'Execute rebalance' })])
            expect(
              within((await button.boundingBox())!, size),
              'confirmation buttons in view',
            ).toBe(true);
          await cancel.click();
          await dialog.waitFor({ state: 'hidden' });

          // The versions list, then a version in detail: its header whole, the reason column as
          // wide as it needs.
          await openStrategyTab(page, 'Fresh Start', 'Versions');
          const list = page.getByRole('table', { name: 'Versions, newest first' });
          await list.waitFor();
          await screenshot(page, name('3-versions'));
          await expectNothingCut(page, name('3-versions'));
          expect(await layoutOf(page).sideways(), name('3-versions') + ' scrolls sideways').toBe(
            false,
          );
          const listBox = (await list.boundingBox())!;
          expect(listBox.x + listBox.width, 'versions list inside the window').toBeLessThanOrEqual(
            size.width,
          );
          expect(
            await list.evaluate(
              (t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth,
            ),
            'versions list without a sideways scroll',
          ).toBe(true);
          await page
            .getByRole('button', { name: `Open version ${synthetic.id.slice(0, 8)}` })
            .click();
          await page.getByRole('table', { name: `Orders of version ${synthetic.id}` }).waitFor();
          await screenshot(page, name('3-version-detail'));
          await expectNothingCut(page, name('3-version-detail'));
          expect(
            await layoutOf(page).sideways(),
            name('3-version-detail') + ' scrolls sideways',
          ).toBe(false);
          const failedCount = synthetic.orders!.filter((o) => o.status === 'FAILED').length;
          const ignoredCount = synthetic.orders!.filter((o) => o.status === 'IGNORED').length;
          await page
            .getByText(`${failedCount} failed and ${ignoredCount} ignored orders in this version`)
            .waitFor();
          const version = await layoutOf(page).versionDetail();
          expect(version.headerClipped, 'version header clipped').toBe(false);
          expect(version.headerRight).toBeLessThanOrEqual(size.width);
          expect(version.truncatedReasons, 'reasons cut while the table has room').toEqual([]);

          // The strategy's activity: every column in view, none scrolled out sideways.
          await page.getByRole('tab', { name: 'Activity' }).click();
          const activity = page.getByRole('table', { name: 'Activity' });
          await activity.locator('tbody tr.row[data-seq]').first().waitFor();
          await screenshot(page, name('3-activity'));
          await expectNothingCut(page, name('3-activity'));
          expect(
            await activity.evaluate(
              (t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth,
            ),
            "strategy's activity without a sideways scroll",
          ).toBe(true);

          // A version executed from this app: each of its facts whole inside the pane.
          await openStrategyTab(page, 'Core Equity', 'Versions');
          await page
            .getByRole('button', { name: `Open version ${executedHere.id.slice(0, 8)}` })
            .click();
          await page.getByText('Executed from this app').waitFor();
          expect(
            (await layoutOf(page).versionDetail()).factsPastPane,
            'version facts past the pane',
          ).toEqual([]);

          await page.getByRole('tab', { name: 'Reports' }).click();
          await page.getByRole('form', { name: 'Export orders' }).waitFor();
          await screenshot(page, name('4-reports'));
          await expectNothingCut(page, name('4-reports'));
          expect(await layoutOf(page).sideways(), name('4-reports') + ' scrolls sideways').toBe(
            false,
          );

          // The sandbox's secret is public demo data: no keychain reason, no warning.
          await page.getByRole('button', { name: 'Profile settings' }).click();
          await page.getByTestId('sandbox-secret').waitFor();
          expect(await page.getByRole('main').getByText(DBUS_REASON).count()).toBe(0);
          await screenshot(page, name('5-profile'));
          await expectNothingCut(page, name('5-profile'));
          expect(await layoutOf(page).sideways(), name('5-profile') + ' scrolls sideways').toBe(
            false,
          );
          await expectStatusBarReadable(page, size);

          // Adding a profile: the two ways in, side by side.
          await page.getByRole('button', { name: 'Add profile' }).click();
          await page.getByRole('button', { name: 'Try the built-in sandbox' }).waitFor();
          await screenshot(page, name('6-add-profile'));
          await expectNothingCut(page, name('6-add-profile'));
          expect(await layoutOf(page).sideways(), 'add profile scrolls sideways').toBe(false);

          expect(problems).toEqual([]);
          await context.close();
        }
      }
    },
    180_000,
  );

  withChromium(
    'offline and back at 1024×700: the status bar stays readable, the timeout note goes',
    async () => {
      const size = { width: 1024, height: 700 };
      const page = await e2e!.browser.newPage({ viewport: size });
      const problems = collectPageProblems(page);
      await page.goto(e2e!.host.url);
      await openStrategyTab(page, 'Core Equity', 'Overview');
      const status = page.getByRole('contentinfo', { name: 'Status' });
      await status.getByText('Online').waitFor();

      const baseUrl = e2e!.harness.sandbox()!.baseUrl;
      await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 2500 });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const timedOut = page.getByRole('alert').filter({ hasText: 'did not answer in time' });
      await timedOut.waitFor();
      await status.getByText('Offline', { exact: true }).waitFor();
      await expectStatusBarReadable(page, size);
      await screenshot(page, 'small-1024-light-6-offline');

      await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
      await page.getByRole('button', { name: 'Try again now' }).click();
      await status.getByText('Online', { exact: true }).waitFor();
      // Back online: the note about the connection went with its cause.
      await timedOut.waitFor({ state: 'detached' });
      await expectStatusBarReadable(page, size);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium(
    'a paste fills the focused blank row, a rescale is one undo, flagged rows match the others',
    async () => {
      const page = await e2e!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, e2e!.host.url, 'Core Equity');
      await newDraft(page, 'Paste here', 'Empty');
      await page.getByRole('button', { name: 'Add row' }).click();
      await page.keyboard.type('AAPL');
      await page.keyboard.press('Tab');
      await page.keyboard.type('10');
      // Enter on the last row adds a blank row and focuses its symbol: paste there.
      await page.keyboard.press('Enter');
      await pasteText(page, 'MSFT\t20\nNVDA\t30\n');
      await page.getByText(/Pasted: .* 2 added, 0 updated\./).waitFor();
      expect(await gridRows(page)).toEqual([
        { symbol: 'AAPL', weight: '10' },
        { symbol: 'MSFT', weight: '20' },
        { symbol: 'NVDA', weight: '30' },
      ]);
      await page.getByText('No problems: the draft can be executed.').waitFor();

      // Rescale twice (the second changes nothing), then one Ctrl+Z takes the rescale back.
      await page.getByRole('button', { name: 'Rescale', exact: true }).click();
      await expect.poll(async () => (await gridRows(page))[0]!.weight).not.toBe('10');
      const rescaled = await gridRows(page);
      await page.getByRole('button', { name: 'Rescale', exact: true }).click();
      expect(await gridRows(page)).toEqual(rescaled);
      await page.keyboard.press('ControlOrMeta+Z');
      await expect
        .poll(async () => (await gridRows(page)).map((r) => r.weight))
        .toEqual(['10', '20', '30']);

      // Held symbols left out are flagged rows, their symbol in the same face as the others.
      const flagged = page.locator('tbody.left-out tr.flagged').first();
      await flagged.waitFor();
      const fonts = await page.evaluate(() => {
        const font = (el: Element) => {
          const s = getComputedStyle(el);
          return `${s.fontFamily} ${s.fontSize}`;
        };
        return {
          draft: font(document.querySelector('tbody:not(.left-out) tr[data-key] input.cell')!),
          flagged: font(document.querySelector('tbody.left-out .sym')!),
        };
      });
      expect(fonts.flagged).toBe(fonts.draft);
      await screenshot(page, 'small-1024-light-7-paste-and-flagged');
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium('the unknown-symbol note goes when its row is removed', async () => {
    const page = await e2e!.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, e2e!.host.url, 'Fresh Start');
    await newDraft(page, 'Unknown', 'Empty');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.keyboard.type('zzzq');
    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await page.keyboard.type('AAPL');
    await page.keyboard.press('Tab');
    await page.keyboard.type('10');
    await page.getByText('No problems: the draft can be executed.').waitFor();
    // AAPL is in the draft now: it is no longer flagged as a target symbol left out.
    const leftOut = (await page.locator('tbody.left-out .sym').allTextContents()).map((t) =>
      t.trim(),
    );
    expect(leftOut).not.toContain('AAPL');
    expect(leftOut.length).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Execute…' }).click();
    // The known target here is the imported synthetic version, which the service does not know:
    // the confirmation says so and asks for the tick a manager gives before executing anyway.
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('confirm-unconfirmed').waitFor();
    await screenshot(page, 'small-1024-light-8-confirm');
    const execute = dialog.getByRole('button', { name: 'Execute rebalance' });
    expect(await execute.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: /I understand/ }).check();
    await execute.click();
    const note = page.getByText('The service does not know these symbols: ZZZQ');
    await note.waitFor();
    await screenshot(page, 'small-1024-light-8-unknown-symbol');
    await page.getByRole('button', { name: 'Remove ZZZQ', exact: true }).click();
    await note.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Execute…' }).isDisabled()).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });
});
