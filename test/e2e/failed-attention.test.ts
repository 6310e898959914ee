import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS, HALTED_SYMBOL } from '../../electron/sandbox';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { executeDraft, openStrategyTab, useVersionsE2E } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/**
 * A failed rebalance (the sandbox's HALTED symbol) needs the manager's attention in the status
 * bar and on its strategy's dot until they acknowledge it on the version; the liquidate-only
 * banner says what the mode means and who lifts it. Chromium, browser host, desk, sandbox, SQLite.
 */
const withChromium = itNeeds(chromiumPart);
const e2e = useVersionsE2E(chromiumPart.available);

const attention = (page: Page) => page.locator('[data-status-item="attention"]');
const dotOf = (page: Page, name: string) =>
  page
    .getByRole('navigation', { name: 'Strategies' })
    .getByRole('button', { name: new RegExp(`^${name}\\b`) })
    .locator('.dot');

describe('a failed rebalance needs attention until acknowledged', () => {
  withChromium(
    'HALTED: the status bar and the dot count it, the banner explains, Acknowledge clears both',
    async () => {
      const page = await e2e().browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Fresh Start', 'Overview');
      await expect
        .poll(() => attention(page).textContent())
        .toMatch(/^\s*0\s+executions need attention, all profiles\s*$/);

      const version = await executeDraft(
        e2e(),
        DEMO_STRATEGY_IDS.freshStart,
        () => [
          { symbol: 'AAPL', weight: '40', locked: false },
          { symbol: HALTED_SYMBOL, weight: '10', locked: false },
        ],
        'empty',
      );
      await e2e().harness.waitFor(
        (e) => e.type === 'version-status-changed' && e.versionId === version.id && e.ended,
      );
      await expect
        .poll(() => attention(page).textContent(), { timeout: 10_000 })
        .toMatch(/^\s*1\s+execution needs attention, all profiles\s*$/);
      expect(await attention(page).getAttribute('title')).toContain(
        '1 failed or partly failed rebalance not yet acknowledged',
      );
      await expect
        .poll(() => dotOf(page, 'Fresh Start').getAttribute('class'))
        .toContain('attention');
      expect(await dotOf(page, 'Fresh Start').getAttribute('title')).toBe(
        'A rebalance failed: open its version in Versions to see it and acknowledge it',
      );

      // The Overview's banner says what liquidate-only means and who lifts it.
      await page.getByRole('button', { name: 'Refresh' }).click();
      const banner = page.getByRole('status').filter({ hasText: 'Liquidate-only.' });
      await banner.waitFor();
      expect((await banner.textContent())!.replace(/\s+/g, ' ')).toContain(
        'The service accepts only sells and weight decreases for this strategy: a new version ' +
          'may lower or remove positions, and is refused if it raises any weight or adds a ' +
          "symbol. Only the service's operators can lift this mode; nothing in this app can.",
      );
      await screenshot(page, 'failed-attention-01-banner');

      // A restart keeps it counted: nothing was acknowledged. The page is left first: a read it
      // has in hand (a throttled status read) would otherwise meet the host gone.
      await page.goto('about:blank');
      await e2e().restart();
      await page.goto(e2e().host.url);
      await openStrategyTab(page, 'Fresh Start', 'Versions');
      await expect
        .poll(() => attention(page).textContent())
        .toMatch(/^\s*1\s+execution needs attention/);

      await page.getByRole('button', { name: `Open version ${version.id.slice(0, 8)}` }).click();
      const note = page.getByRole('alert').filter({ hasText: 'This rebalance failed' });
      await note.waitFor();
      await screenshot(page, 'failed-attention-02-to-acknowledge');
      await note.getByRole('button', { name: 'Acknowledge' }).click();
      await expect
        .poll(async () =>
          (await page.getByTestId('failure-acknowledgement').textContent())!
            .replace(/\s+/g, ' ')
            .trim(),
        )
        .toMatch(/^Acknowledged .+: it no longer counts as needing attention\.$/);
      await expect
        .poll(() => attention(page).textContent())
        .toMatch(/^\s*0\s+executions need attention, all profiles\s*$/);
      await expect
        .poll(() => dotOf(page, 'Fresh Start').getAttribute('class'))
        .not.toContain('attention');

      // Stored: a reload still reads it as acknowledged.
      await page.reload();
      await openStrategyTab(page, 'Fresh Start', 'Versions');
      await expect.poll(() => attention(page).textContent()).toMatch(/^\s*0\s+executions need/);
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
