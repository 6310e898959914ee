import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { sandboxAdmin } from '../support/desk-harness';
import { openStrategyTab } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/** A refresh that waits on a slow service: said so next to the button, and cancelled by the manager. */
const withChromium = itNeeds(chromiumPart);
let e2e: AppE2E | undefined;

beforeAll(async () => {
  if (chromiumPart.available)
    e2e = await openAppE2E({
      stepMs: 0,
      clientOptions: { slowAfterMs: 200, timeouts: { requestMs: 30_000 } },
    });
}, 120_000);
afterAll(async () => {
  await e2e?.close();
});

describe('refreshing a strategy on a slow service', () => {
  withChromium('shows "slow to answer" and cancels the refresh on request', async () => {
    const page = await e2e!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(e2e!.host.url);
    await openStrategyTab(page, 'Core Equity', 'Overview');
    const before = await e2e!.harness.desk.strategies.get({
      profileId: e2e!.profileId,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
    });

    await sandboxAdmin(e2e!.harness.sandbox()!.baseUrl, 'PUT', '/sandbox/faults', {
      latency_ms: 20_000,
    });
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await page.getByRole('button', { name: 'Refreshing…' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'The service is slow to answer' }).waitFor();
    await screenshot(page, 'strategy-refresh-slow');

    await page.getByRole('button', { name: 'Cancel refresh' }).click();
    // Back to a Refresh button well before the service would answer; no error shown.
    await page.getByRole('button', { name: 'Refresh', exact: true }).waitFor({ timeout: 5_000 });
    expect(await page.getByRole('button', { name: 'Cancel refresh' }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    const after = await e2e!.harness.desk.strategies.get({
      profileId: e2e!.profileId,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
    });
    expect(after.syncedAt).toBe(before.syncedAt);
    await sandboxAdmin(e2e!.harness.sandbox()!.baseUrl, 'DELETE', '/sandbox/faults');
    expect(problems).toEqual([]);
  });
});
