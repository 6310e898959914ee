import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { sandboxAdmin } from '../support/desk-harness';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { executeDraft, openStrategyTab } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/**
 * A version whose tracking fails says so on screen, with "Check now"; the times its steps
 * were seen are stored, so they survive a reload. Chromium against the browser host, the
 * real desk, sandbox and SQLite.
 */
const withChromium = itNeeds(chromiumPart);
let e2e: AppE2E | undefined;

beforeAll(async () => {
  // After a failed poll the next one is a minute away: only "Check now" brings it sooner.
  if (chromiumPart.available) {
    e2e = await openAppE2E({
      stepMs: 20,
      trackerBackoff: { initialMs: 60_000, factor: 1, maxMs: 60_000 },
    });
  }
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

const step = (page: Page, status: string) =>
  page.locator(`ol[aria-label="Rebalance steps"] li[data-status="${status}"]`);

async function openDetail(page: Page, versionId: string) {
  await openStrategyTab(page, 'Core Equity', 'Versions');
  await page.getByRole('button', { name: `Open version ${versionId.slice(0, 8)}` }).click();
  await page.getByRole('heading', { name: `Version ${versionId}` }).waitFor();
}

describe('following a version on screen', () => {
  withChromium(
    'a refused poll shows its reason and "Check now"; step times survive a reload',
    async () => {
      const page = await e2e!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      const base = e2e!.harness.sandbox()!.baseUrl;
      // Every read of the version comes back with numbers where decimal strings belong.
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', { wrong_types_next: 1_000_000 });
      const version = await executeDraft(e2e!, DEMO_STRATEGY_IDS.coreEquity, (rows) => rows);
      await page.goto(e2e!.host.url);
      await openDetail(page, version.id);

      const note = page.getByRole('status', { name: 'Following this version' });
      await note.waitFor();
      expect(await note.textContent()).toMatch(/cannot read this version’s progress/);
      expect(await note.textContent()).toMatch(/does not understand.*Last try \d/s);
      expect(await page.getByText('Following live').count()).toBe(0);
      await screenshot(page, 'versions-tracking-refused');

      await sandboxAdmin(base, 'DELETE', '/sandbox/faults');
      await note.getByRole('button', { name: 'Check now' }).click();
      await step(page, 'COMPLETE').and(page.locator('.complete')).waitFor();
      await note.waitFor({ state: 'detached' });

      // A reload keeps the time each status was first seen, from the app's data file.
      await page.reload();
      await openDetail(page, version.id);
      await step(page, 'COMPLETE').and(page.locator('.complete')).waitFor();
      expect(await step(page, 'COMPLETE').textContent()).toMatch(/seen \d/);
      expect(await step(page, 'PENDING').textContent()).toMatch(/seen \d/);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
