import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { sandboxAdmin } from '../support/desk-harness';
import { screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/** Execute stays visible and disabled with its reason: a read-only client, then offline. */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  // A short client timeout, so a slow sandbox reads as offline quickly.
  env = await openDraftsEnv({
    clientOptions: { timeouts: { connectMs: 400, requestMs: 400 } },
  });
}, 120_000);
afterAll(async () => env?.close());

describe('Execute disabled with the reason', () => {
  withChromium('a read-only profile lacks the scope', async () => {
    const { harness } = env!;
    const baseUrl = harness.sandbox()!.baseUrl;
    const viewer = await harness.desk.profiles.create({
      name: 'Viewer',
      baseUrl,
      clientId: 'demo-viewer',
      secret: 'demo-secret',
    });
    // Testing the connection records the scopes the service granted (as the profile form does).
    expect(
      (await harness.desk.profiles.testConnection({ profileId: viewer.id })).grantedScopes,
    ).not.toContain('strategy_versions:create');
    await harness.desk.strategies.add({
      profileId: viewer.id,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
    });
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.addInitScript((id) => localStorage.setItem('strategy-desk.profile', id), viewer.id);
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'Look only', 'Empty');
    const execute = page.getByRole('button', { name: 'Execute…' });
    expect(await execute.isDisabled()).toBe(true);
    await page.getByText(/This client lacks the scope strategy_versions:create/).waitFor();
    expect(await execute.getAttribute('aria-describedby')).toBe('execute-reason');
    await screenshot(page, 'drafts-10-read-only');
    await page.close();
  });

  withChromium('offline: drafts stay editable, execute waits for the connection', async () => {
    const { harness } = env!;
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    await page.addInitScript(
      (id) => localStorage.setItem('strategy-desk.profile', id),
      env!.profileId,
    );
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'Offline edit', 'From the current target');
    const execute = page.getByRole('button', { name: 'Execute…' });
    // Straight from the target, the draft changes nothing, and the reason line says so.
    await page.getByText('Nothing to change: this draft changes no weight').waitFor();

    const baseUrl = harness.sandbox()!.baseUrl;
    await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 3000 });
    try {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByText(/Offline: executing needs a connection/).waitFor({ timeout: 20_000 });
      expect(await execute.isDisabled()).toBe(true);
      // Editing goes on, saved locally.
      await page.getByLabel('Draft weight % of AAPL', { exact: true }).fill('14');
      await waitSaved(page);
      await screenshot(page, 'drafts-11-offline');
      const [draft] = await harness.desk.drafts.list({
        profileId: env!.profileId,
        strategyId: DEMO_STRATEGY_IDS.coreEquity,
      });
      const rows = (await harness.desk.drafts.get({ draftId: draft!.id })).rows;
      expect(rows.find((r) => r.symbol === 'AAPL')?.weight).toBe('14');
    } finally {
      await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
    }
    await page.close();
  });
});
