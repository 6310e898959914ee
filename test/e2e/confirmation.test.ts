import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { groupDigits } from '../../shared/figures';
import { sandboxAdmin } from '../support/desk-harness';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { newDraft, openDraftsTab, rowOf, waitSaved } from '../support/e2e-drafts-env';
import { call, executePath, target, tokenFor, waitForEnd } from '../support/sandbox-http';
import { itNeeds } from '../support/system-parts';

/**
 * The two ways the confirmation was wrong about which way the money moves, scripted as a manager
 * meets them, in Chromium against the browser host, the real desk, SQLite, keychain and sandbox:
 * what the confirmation shows, and that the service's answer agrees with it.
 */
const withChromium = itNeeds(chromiumPart);
let env: BareAppE2E | undefined;
let profileId = '';
const { coreEquity, dividendGrowth } = DEMO_STRATEGY_IDS;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  env = await openBareAppE2E({ stepMs: 10 });
  const sandbox = await env.harness.startSandbox();
  // A fresh profile on the sandbox: no executed version of any strategy is known to it.
  profileId = (
    await env.harness.desk.profiles.create({
      name: 'Fresh desk',
      baseUrl: sandbox.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: DEMO_CLIENTS.manager.client_secret,
    })
  ).id;
}, 120_000);
afterAll(async () => env?.close());

/** The confirmation's rows: symbol, predicted action, old %, new %, held quantity. */
async function confirmationRows(page: Page) {
  return page
    .getByRole('dialog')
    .getByRole('table', { name: 'Changes' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())),
    );
}

async function setWeight(page: Page, symbol: string, weight: string) {
  await page.getByLabel(`Draft weight % of ${symbol}`, { exact: true }).fill(weight);
}

describe('the Execute confirmation before money moves', () => {
  withChromium('unknown target: the five held symbols at 0 are shown as sales', async () => {
    const { harness, host } = env!;
    const strategy = await harness.desk.strategies.add({ profileId, strategyId: dividendGrowth });
    const held = new Map(strategy.holdings.map((h) => [h.symbol, h.quantity]));
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, host.url, 'Dividend Growth');
    await newDraft(page, 'From the holdings', 'From the holdings (weights 0)');
    await setWeight(page, 'JNJ', '11');
    await setWeight(page, 'PG', '12');
    await setWeight(page, 'KO', '10');
    await waitSaved(page);

    // The grid: the starting point is unknown, so no action is guessed; the sales are facts.
    await page
      .getByTestId('target-source')
      .getByText(/unknown to this app/)
      .waitFor();
    expect((await page.getByTestId('current-target-cash').textContent())!.trim()).toBe('unknown');
    const sold = ['ABBV', 'PEP', 'SCHD', 'VYM', 'XOM'];
    for (const symbol of sold) {
      const row = rowOf(page, symbol);
      expect(await row.getByText('sells all').count()).toBe(1);
      expect(await row.getByText('IGNORE').count()).toBe(0);
    }
    expect(await rowOf(page, 'JNJ').getByText('uncertain').count()).toBe(1);
    // Its current target weight is not shown as 0: the app does not know it.
    expect((await rowOf(page, 'JNJ').locator('td.num').first().textContent())!.trim()).toBe('?');
    await screenshot(page, 'confirm-01-unknown-grid');

    await page.getByRole('button', { name: 'Execute…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('confirm-unknown').waitFor();
    expect(await dialog.getByTestId('confirm-target').textContent()).toContain(
      'unknown to this app: no executed version of this strategy is known here',
    );
    const summary = (await dialog.getByTestId('confirm-summary').textContent())!;
    expect(summary).toContain('5 held symbols sold whole');
    expect(summary).not.toMatch(/unchanged/);
    const rows = await confirmationRows(page);
    for (const symbol of sold)
      expect(rows).toContainEqual([
        symbol,
        'sells all · action uncertain',
        'unknown',
        '0',
        // The whole held quantity, grouped by thousands on screen.
        groupDigits(held.get(symbol)!),
      ]);
    expect((await dialog.getByTestId('confirm-old-cash').textContent())!.trim()).toBe('unknown');
    await screenshot(page, 'confirm-02-unknown-dialog');

    // The scheduled version is in the way: the app shows it, deletes it on the button naming
    // it, then executes.
    await dialog.getByTestId('confirm-unknown').getByRole('checkbox').check();
    await dialog.getByRole('button', { name: 'Execute rebalance' }).click();
    const blocking = `${DEMO_VERSION_IDS.dividendGrowthScheduled.slice(0, 8)}…`;
    await page.getByRole('button', { name: `See version ${blocking} before deleting it` }).click();
    await page
      .getByRole('dialog', { name: `Unexecuted version ${blocking} of Dividend Growth` })
      .getByRole('button', {
        name: new RegExp(`^Delete version ${blocking}, scheduled for .+, and execute this draft$`),
      })
      .click();
    await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
    const created = (await harness.desk.versions.list({ profileId, strategyId: dividendGrowth }))
      .filter((v) => v.origin === 'created')
      .map((v) => v.id);
    expect(created).toHaveLength(1);
    const version = await harness.desk.versions.get({
      profileId,
      strategyId: dividendGrowth,
      versionId: created[0]!,
    });
    // The service did what the confirmation said: these five, sold whole, and nothing else removed.
    expect(
      version.positions
        .filter((p) => p.action === 'REMOVE')
        .map((p) => p.symbol)
        .sort(),
    ).toEqual(sold);
    for (const symbol of sold)
      expect(
        version.orders.find((o) => o.symbol === symbol && o.side === 'SELL')?.order_quantity,
      ).toBe(held.get(symbol));
    await page
      .getByTestId('prediction-outcome')
      .getByText(/No action was predicted \(without a known current target\)/)
      .waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium('stale target: a change made elsewhere must be acknowledged', async () => {
    const { harness, host } = env!;
    const base = harness.sandbox()!.baseUrl;
    await harness.desk.strategies.add({ profileId, strategyId: coreEquity });
    // The manager imports the executed version by id: the app now knows a current target.
    await harness.desk.versions.import({
      profileId,
      strategyId: coreEquity,
      versionId: DEMO_VERSION_IDS.coreEquityExecuted,
    });
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, host.url, 'Core Equity');
    await newDraft(page, 'One weight', 'From the current target');
    await page
      .getByTestId('target-source')
      .getByText(/\(imported\)/)
      .waitFor();

    // Behind the app's back: another client of the service keeps two symbols, sells five.
    const token = await tokenFor(base, 'manager');
    const answer = await call(base, 'POST', executePath(coreEquity), {
      token,
      body: target(['SPY', '40'], ['AAPL', '30']),
    });
    expect(answer.status).toBe(202);
    await waitForEnd(base, token, answer.headers.location as string);

    await page.getByRole('button', { name: 'Refresh' }).click();
    const gone = ['AMZN', 'BRK.B', 'JPM', 'MSFT', 'NVDA'];
    await page
      .getByTestId('target-source')
      .getByText(`In the target, not held: ${gone.join(', ')}.`)
      .waitFor();

    await setWeight(page, 'JPM', '7');
    await waitSaved(page);
    await page.getByRole('button', { name: 'Execute…' }).click();
    const dialog = page.getByRole('dialog');
    const stale = dialog.getByTestId('confirm-stale');
    await stale.waitFor();
    expect(await stale.textContent()).toContain(
      `In the known target, not held: ${gone.join(', ')}`,
    );
    const execute = dialog.getByRole('button', { name: 'Execute rebalance' });
    expect(await execute.isDisabled()).toBe(true);
    await screenshot(page, 'confirm-03-stale-dialog');
    await stale.getByRole('checkbox').check();
    expect(await execute.isDisabled()).toBe(false);
    await execute.click();
    await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();

    // The version detail names every symbol where the service differed, symbol by symbol, as
    // the confirmation warned: expected on a stale target, not a surprise.
    const outcome = page.getByTestId('prediction-outcome');
    await outcome.getByTestId('prediction-expected').waitFor();
    const listed = await outcome
      .locator('tbody tr td:first-child')
      .evaluateAll((tds) => tds.map((td) => td.textContent!.trim()).sort());
    expect(listed).toEqual([...gone, 'AAPL', 'SPY'].sort());
    await screenshot(page, 'confirm-04-differences');
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium(
    'a draft remembers the version it became; executing it again is explicit',
    async () => {
      const { harness, host } = env!;
      const [summary] = await harness.desk.drafts.list({ profileId, strategyId: dividendGrowth });
      const earlier = summary!.executedVersionId!;
      expect(earlier).toBeTruthy();
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, host.url, 'Dividend Growth');
      await page.getByRole('table', { name: 'Drafts' }).getByText('Executed').waitFor();
      await page.getByTestId('draft-became').getByText(earlier).waitFor();
      // Its rebalance must have ended before the service takes another version.
      await expect
        .poll(
          async () =>
            (
              await harness.desk.versions.get({
                profileId,
                strategyId: dividendGrowth,
                versionId: earlier,
              })
            ).status,
          { timeout: 15_000 },
        )
        .toBe('COMPLETE');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('button', { name: 'Execute…' }).click();
      const dialog = page.getByRole('dialog');
      // The app created the version it knows as target, so it is known now, and it fits.
      await dialog
        .getByTestId('confirm-target')
        .getByText(/created here/)
        .waitFor();
      expect(await dialog.getByTestId('confirm-stale').count()).toBe(0);
      expect(await dialog.getByRole('button', { name: 'Execute rebalance' }).count()).toBe(0);
      await dialog
        .getByRole('button', {
          name: `Execute again (this draft already became version ${earlier})`,
        })
        .click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      const created = (
        await harness.desk.versions.list({ profileId, strategyId: dividendGrowth })
      ).filter((v) => v.origin === 'created');
      expect(created).toHaveLength(2);
      await page
        .getByTestId('prediction-outcome')
        .getByText(/matched the confirmation/)
        .waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'unknown target: the confirmation imports the latest version by id first',
    async () => {
      const { harness, host } = env!;
      const base = harness.sandbox()!.baseUrl;
      const second = (
        await harness.desk.profiles.create({
          name: 'Second desk',
          baseUrl: base,
          clientId: DEMO_CLIENTS.manager.client_id,
          secret: DEMO_CLIENTS.manager.client_secret,
        })
      ).id;
      await harness.desk.strategies.add({ profileId: second, strategyId: coreEquity });
      const listing = (await sandboxAdmin(base, 'GET', '/sandbox/strategies')) as {
        data: { id: string; latest_executed_version_id: string | null }[];
      };
      const latest = listing.data.find((s) => s.id === coreEquity)!.latest_executed_version_id!;
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await page.addInitScript((id) => localStorage.setItem('strategy-desk.profile', id), second);
      await openDraftsTab(page, host.url, 'Core Equity');
      await newDraft(page, 'Held', 'From the holdings (weights 0)');
      await setWeight(page, 'SPY', '30');
      await waitSaved(page);
      await page.getByRole('button', { name: 'Execute…' }).click();
      const dialog = page.getByRole('dialog');
      const unknown = dialog.getByTestId('confirm-unknown');
      // A mistyped id: the confirmation stays open and says why, next to the id.
      await unknown
        .getByLabel('Import the latest version by id first')
        .fill('00000000-0000-4000-8000-000000000000');
      await unknown.getByRole('button', { name: 'Import and check again' }).click();
      await unknown
        .getByRole('alert')
        .getByText(/does not know this version/)
        .waitFor();
      expect(await dialog.isVisible()).toBe(true);
      await unknown.getByLabel('Import the latest version by id first').fill(latest);
      await unknown.getByRole('button', { name: 'Import and check again' }).click();
      // The confirmation comes back from fresh reads, now from the imported version.
      await dialog.getByTestId('confirm-target').getByText(latest).waitFor();
      expect(await dialog.getByTestId('confirm-target').textContent()).toContain('(imported)');
      expect(await dialog.getByTestId('confirm-unknown').count()).toBe(0);
      await screenshot(page, 'confirm-05-imported');
      // The browser tells a close a task later. Read afresh before that task ran (a busy
      // machine), the confirmation is open again when the close is told: it stays open, its
      // focus inside. Forced here, closed and opened in one go as the import does it.
      const reopened = await dialog.evaluate(async (d: HTMLDialogElement) => {
        const told = new Promise((resolve) => d.addEventListener('close', resolve, { once: true }));
        d.close();
        d.showModal();
        await told;
        // Whatever the close set off (the flow's state, its effect) has run by the next task.
        await new Promise((resolve) => setTimeout(resolve, 0));
        return { open: d.open, focusInside: d.contains(document.activeElement) };
      });
      expect(reopened).toEqual({ open: true, focusInside: true });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      expect(
        (await harness.desk.versions.list({ profileId: second, strategyId: coreEquity })).map(
          (v) => [v.id, v.origin],
        ),
      ).toEqual([[latest, 'imported']]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
