import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import type { Desk } from '../../electron/core/desk';
import type { SecretStore } from '../../electron/core/secrets';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { groupDigits } from '../../shared/figures';
import type { RunningHost } from '../../electron/host';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * A first launch as a new user lives it: the real desk (SQLite in a temp folder, the keychain
 * under a throwaway service name, the in-process sandbox) behind the browser host, in Chromium.
 */
const withChromium = itNeeds(chromiumPart);

let app: BareAppE2E | undefined;
let secrets: SecretStore;
let desk: Desk | undefined;
let host: RunningHost | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  app = await openBareAppE2E();
  ({ host, browser } = app);
  ({ desk, secrets } = app.harness);
}, 120_000);

afterAll(async () => app?.close());

describe('first launch in the browser host', () => {
  withChromium('welcome, built-in sandbox, demo strategies, Core Equity holdings', async () => {
    const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = collectPageProblems(page);
    await page.goto(host!.url);

    // Welcome: two choices side by side, the sandbox one a single button.
    await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
    await expect.poll(() => page.url()).toBe(`http://127.0.0.1:${host!.port}/`);
    expect(await page.getByRole('heading', { name: 'Connect to your service' }).count()).toBe(1);
    expect(await page.getByText('local simulation of the service with demo data').count()).toBe(1);
    await screenshot(page, 'e2e-01-welcome');

    // The form refuses plain http to a remote service, in words, on the field.
    await page.getByLabel('Service address').fill('http://service.example.com');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Use https://.').waitFor();
    await screenshot(page, 'e2e-02-welcome-form-problems');

    await page.getByRole('button', { name: 'Try the built-in sandbox' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Strategies' });
    for (const name of ['Core Equity', 'Dividend Growth', 'Fresh Start']) {
      await sidebar.getByRole('button', { name: new RegExp(`^${name}\\b`) }).waitFor();
    }
    expect(await page.getByText('SANDBOX', { exact: true }).count()).toBe(1);
    // Without a keychain, no warning: the sandbox's demo secret is public.
    expect(await page.getByRole('img', { name: 'Secret stored in the OS keychain' }).count()).toBe(
      secrets.kind === 'keychain' ? 1 : 0,
    );
    expect(await page.getByRole('img', { name: 'Secret kept for this session only' }).count()).toBe(
      0,
    );
    await screenshot(page, 'e2e-03-sandbox-strategies');

    // Core Equity's holdings, exactly as the desk has them.
    const [profile] = await desk!.profiles.list({});
    const expected = await desk!.strategies.get({
      profileId: profile!.id,
      strategyId: DEMO_STRATEGY_IDS.coreEquity,
    });
    expect(expected.holdings.length).toBeGreaterThan(0);
    await sidebar.getByRole('button', { name: /^Core Equity\b/ }).click();
    await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
    const holdings = page.getByRole('table', { name: /Holdings/ });
    await holdings.waitFor();
    const rows = await holdings
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
      );
    expect(rows).toEqual(expected.holdings.map((h) => [h.symbol, groupDigits(h.quantity)]));
    await page.getByRole('table', { name: /Current target/ }).waitFor();
    await screenshot(page, 'e2e-04-core-equity-overview');

    // Add strategy by id: a malformed id is refused on the field; a strategy of another
    // organization is refused by the service, in words, with the details behind a disclosure.
    await page.getByRole('button', { name: 'Add strategy by id' }).click();
    const form = page.getByRole('form', { name: 'Add strategy by id' });
    await form.getByLabel('Strategy id').fill('core-equity');
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByText('A strategy id looks like').waitFor();
    await form.getByLabel('Strategy id').fill(DEMO_STRATEGY_IDS.otherFund);
    await form.getByRole('button', { name: 'Add' }).click();
    const refusal = form.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).not.toMatch(/[{}]/);
    if ((await refusal.getByText('Details').count()) > 0)
      await refusal.getByText('Details').click();
    await screenshot(page, 'e2e-05-add-strategy-refused');
    expect(await sidebar.getByRole('button').count()).toBe(3);
    await form.getByRole('button', { name: 'Cancel' }).click();

    // A reload keeps the access key (sessionStorage) and the profile.
    await page.reload();
    await sidebar.getByRole('button', { name: /^Core Equity\b/ }).waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium('a page opened without its access key says what to do', async () => {
    const page = await browser!.newPage();
    await page.goto(`http://127.0.0.1:${host!.port}/`);
    await page.getByRole('heading', { name: 'Strategy desk cannot start' }).waitFor();
    expect(await page.getByText('opened without its access key').count()).toBe(1);
    await screenshot(page, 'e2e-06-no-access-key');
    await page.close();
  });
});
