import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { groupDigits } from '../../shared/figures';
import { sandboxAdmin } from '../support/desk-harness';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { newDraft, openDraftsTab, rowOf, waitSaved } from '../support/e2e-drafts-env';
import {
  call,
  executePath,
  target,
  tokenFor,
  versionPath,
  waitForEnd,
} from '../support/sandbox-http';
import { itNeeds } from '../support/system-parts';

/**
 * A target in doubt, walked as a manager meets it in Chromium against the browser host, the
 * real desk, SQLite, the keychain and the built-in sandbox over HTTP: an unknown target that
 * sells holdings takes the same tick as a stale one, and on either no action, no "unchanged"
 * and no old weight is shown as fact, in the grid, the confirmation, the version's comparison
 * and the activity entry alike.
 */
const withChromium = itNeeds(chromiumPart);
let env: BareAppE2E | undefined;
const { dividendGrowth } = DEMO_STRATEGY_IDS;
/** What the grid and the confirmation must never show as fact on a target in doubt. */
const FACT_WORDS = /\b(ADD|CHANGE|REMOVE|IGNORE)\b|unchanged/;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  env = await openBareAppE2E({ stepMs: 10 });
  await env.harness.startSandbox();
}, 120_000);
afterAll(async () => env?.close());

/**
 * The sandbox afresh, a new profile on it with Dividend Growth added by id (as "Add strategy"
 * does: the app then knows no executed version of it), and the unexecuted version that would be
 * in the way deleted by another client over the service's HTTP API.
 */
async function freshProfile(name: string): Promise<string> {
  const base = env!.harness.sandbox()!.baseUrl;
  await sandboxAdmin(base, 'POST', '/sandbox/reset');
  const profileId = (
    await env!.harness.desk.profiles.create({
      name,
      baseUrl: base,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: DEMO_CLIENTS.manager.client_secret,
    })
  ).id;
  const token = await tokenFor(base, 'manager');
  const deleted = await call(
    base,
    'DELETE',
    versionPath(dividendGrowth, DEMO_VERSION_IDS.dividendGrowthScheduled),
    { token },
  );
  expect(deleted.status).toBe(204);
  return profileId;
}

async function openAs(profileId: string): Promise<{ page: Page; problems: string[] }> {
  const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
  const problems = collectPageProblems(page);
  await page.addInitScript((id) => localStorage.setItem('strategy-desk.profile', id), profileId);
  await openDraftsTab(page, env!.host.url, 'Dividend Growth');
  return { page, problems };
}

async function setWeight(page: Page, symbol: string, weight: string) {
  await page.getByLabel(`Draft weight % of ${symbol}`, { exact: true }).fill(weight);
}

/** A table's cells, row by row. */
function cells(rows: Locator): Promise<string[][]> {
  return rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())),
  );
}

/** The grid's "Predicted action" cells, draft rows and left-out rows alike. */
function gridActions(page: Page): Promise<string[]> {
  return page
    .getByRole('grid', { name: 'Draft rows' })
    .locator('tbody tr:not(.spacer) td:nth-child(6)')
    .evaluateAll((tds) => tds.map((td) => td.textContent!.replace(/\s+/g, ' ').trim()));
}

/** The confirmation's rows: symbol, action, last known %, new %, held quantity. */
function confirmationRows(page: Page): Promise<string[][]> {
  return cells(
    page.getByRole('dialog').getByRole('table', { name: 'Changes' }).locator('tbody tr'),
  );
}

/** Opens the strategy's newest execution-sent entry in the Activity tab; its facts and table. */
async function sentEntry(page: Page, profileId: string) {
  const [sent] = (
    await env!.harness.desk.activity.list({
      profileId,
      kinds: ['execution-sent'],
      offset: 0,
      limit: 1,
    })
  ).entries;
  await page.getByRole('tab', { name: 'Activity' }).click();
  await page
    .getByRole('table', { name: 'Activity' })
    .locator(`tr[data-seq="${sent!.seq}"]`)
    .getByRole('button', { name: 'Execution sent' })
    .click();
  const details = page.getByRole('region', { name: /Execution sent/ });
  await details.getByRole('heading', { name: /Execution sent/ }).waitFor();
  const fact = async (label: string) =>
    (
      await details
        .locator('dl.facts dt', { hasText: label })
        .locator('xpath=following-sibling::dd[1]')
        .textContent()
    )?.trim();
  const shown = details.locator('table', {
    has: page.locator('caption', { hasText: 'Prediction shown' }),
  });
  const header = await shown
    .locator('thead th')
    .evaluateAll((ths) => ths.map((th) => th.textContent!.trim()));
  const rows = await cells(shown.locator('tbody tr'));
  return { fact, header, rows, column: (name: string) => rows.map((r) => r[header.indexOf(name)]) };
}

describe('a target in doubt', () => {
  withChromium(
    'unknown target that sells holdings: the same tick as a stale one, nothing guessed',
    async () => {
      const profileId = await freshProfile('Knows nothing');
      const strategy = await env!.harness.desk.strategies.add({
        profileId,
        strategyId: dividendGrowth,
      });
      expect(strategy.currentTarget).toBeNull();
      const held = new Map(strategy.holdings.map((h) => [h.symbol, h.quantity]));
      const { page, problems } = await openAs(profileId);
      await newDraft(page, 'Keep three', 'From the holdings (weights 0)');
      await setWeight(page, 'JNJ', '11');
      await setWeight(page, 'PG', '12');
      await setWeight(page, 'KO', '10');
      await waitSaved(page);

      // The grid: no action guessed, the sales of the five held symbols at 0 as the facts.
      const sold = ['ABBV', 'PEP', 'SCHD', 'VYM', 'XOM'];
      const actions = await gridActions(page);
      expect(actions).toHaveLength(8);
      for (const action of actions) expect(action).not.toMatch(FACT_WORDS);
      for (const symbol of sold)
        expect(await rowOf(page, symbol).locator('td').nth(5).textContent()).toMatch(
          /^uncertain\s*sells all/,
        );
      expect((await rowOf(page, 'JNJ').locator('td').nth(5).textContent())!.trim()).toBe(
        'uncertain',
      );
      expect((await page.getByTestId('current-target-cash').textContent())!.trim()).toBe('unknown');
      await screenshot(page, 'uncertain-01-unknown-grid');

      await page.getByRole('button', { name: 'Execute…' }).click();
      const dialog = page.getByRole('dialog');
      const unknown = dialog.getByTestId('confirm-unknown');
      await unknown.waitFor();
      const summary = (await dialog.getByTestId('confirm-summary').textContent())!;
      expect(summary).toContain('5 held symbols sold whole');
      expect(summary).toContain('3 positions whose action is uncertain');
      expect(summary).not.toMatch(/unchanged/);
      const header = await dialog
        .getByRole('table', { name: 'Changes' })
        .locator('thead th')
        .allTextContents();
      expect(header.map((h) => h.trim())).toContain('Last known %');
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
      expect(rows).toContainEqual([
        'JNJ',
        'uncertain',
        'unknown',
        '11',
        groupDigits(held.get('JNJ')!),
      ]);
      for (const row of rows) expect(row[1]).not.toMatch(FACT_WORDS);
      // What the holdings suggest the service targets now: everything held.
      expect(
        (await unknown.getByTestId('confirm-possibly-targeted').textContent())!.replace(
          /\s+/g,
          ' ',
        ),
      ).toContain(`the service may target them now: ${[...held.keys()].sort().join(', ')}.`);
      // "Execute rebalance" waits for the tick, as on a stale target.
      const execute = dialog.getByRole('button', { name: 'Execute rebalance' });
      expect(await execute.isDisabled()).toBe(true);
      await screenshot(page, 'uncertain-02-unknown-dialog');
      await unknown.getByRole('checkbox').check();
      expect(await execute.isDisabled()).toBe(false);
      await execute.click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      await page
        .getByTestId('prediction-outcome')
        .getByText(/No action was predicted \(without a known current target\)/)
        .waitFor();

      // The activity entry records the doubt, the tick and the rows in the same words.
      const entry = await sentEntry(page, profileId);
      expect(await entry.fact('Stale or unknown target acknowledged')).toBe('Yes');
      expect(await entry.fact('Predicted actions')).toBe(
        'Uncertain: no executed version of this strategy is known here',
      );
      expect(entry.header).toContain('Last known weight');
      expect(entry.column('Shown as').sort()).toEqual([
        ...sold.map(() => 'sells all · action uncertain'),
        'uncertain',
        'uncertain',
        'uncertain',
      ]);
      await screenshot(page, 'uncertain-03-unknown-activity');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'stale target: no IGNORE, no "unchanged" and no old weight shown as fact',
    async () => {
      const { harness } = env!;
      const base = harness.sandbox()!.baseUrl;
      const profileId = await freshProfile('Knows the old target');
      await harness.desk.strategies.add({ profileId, strategyId: dividendGrowth });
      // The app knows the executed version, imported by id as the sandbox profile does.
      await harness.desk.versions.import({
        profileId,
        strategyId: dividendGrowth,
        versionId: DEMO_VERSION_IDS.dividendGrowthExecuted,
      });

      // Outside the app, another client rebalances the strategy to three symbols, one new.
      const token = await tokenFor(base, 'manager');
      const elsewhere = await call(base, 'POST', executePath(dividendGrowth), {
        token,
        body: target(['JNJ', '30'], ['KO', '30'], ['CVX', '30']),
      });
      expect(elsewhere.status).toBe(202);
      await waitForEnd(base, token, elsewhere.headers.location as string);

      const { page, problems } = await openAs(profileId);
      // A draft from the app's target, which the holdings no longer fit once read afresh.
      await newDraft(page, 'KO up', 'From the current target');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page
        .getByTestId('target-source')
        .getByText(/In the target, not held: ABBV, PEP, PG, SCHD, VYM, XOM\./)
        .waitFor();
      await setWeight(page, 'KO', '12');
      await waitSaved(page);

      // The grid: the old weights are the last known ones, and say so; no action is predicted.
      const gridHeader = await page
        .getByRole('grid', { name: 'Draft rows' })
        .locator('thead th')
        .allTextContents();
      expect(gridHeader.map((h) => h.trim())).toContain('Last known %');
      expect(gridHeader.map((h) => h.trim())).not.toContain('Current target %');
      const actions = await gridActions(page);
      expect(actions).toHaveLength(9);
      for (const action of actions) expect(action).not.toMatch(FACT_WORDS);
      const cvx = page
        .getByRole('grid', { name: 'Draft rows' })
        .locator('tbody.left-out tr', { hasText: 'CVX' });
      expect((await cvx.textContent())!.replace(/\s+/g, ' ')).toMatch(
        /held, not in draft: will be sold whole .*uncertain\s*sells all/,
      );
      await page.getByText('Last known target cash weight').waitFor();
      await screenshot(page, 'uncertain-04-stale-grid');

      await page.getByRole('button', { name: 'Execute…' }).click();
      const dialog = page.getByRole('dialog');
      const stale = dialog.getByTestId('confirm-stale');
      await stale.waitFor();
      const summary = (await dialog.getByTestId('confirm-summary').textContent())!;
      expect(summary).toContain('1 held symbol sold whole, 8 positions whose action is uncertain');
      expect(summary).not.toMatch(/unchanged|\d+ changes?\b/);
      const header = await dialog
        .getByRole('table', { name: 'Changes' })
        .locator('thead th')
        .allTextContents();
      expect(header.map((h) => h.trim())).toContain('Last known %');
      expect(header.map((h) => h.trim())).not.toContain('Old %');
      const rows = await confirmationRows(page);
      for (const row of rows) expect(row[1]).not.toMatch(FACT_WORDS);
      expect(rows).toContainEqual(['KO', 'uncertain', '10', '12', expect.any(String)]);
      // Held, not in the last known target: flagged as such, and its sale the one fact.
      const cvxRow = rows.find((r) => r[0]!.startsWith('CVX'))!;
      expect(cvxRow[0]!.replace(/\s+/g, ' ')).toBe('CVX held, not in last known target');
      expect(cvxRow[1]).toBe('sells all · action uncertain');
      expect((await dialog.getByTestId('confirm-old-cash').textContent())!.trim()).toBe(
        '5 (last known)',
      );
      // Held, not in the known target: what the holdings suggest the service targets now.
      expect(await stale.getByTestId('confirm-possibly-targeted').textContent()).toMatch(
        /the service may target them now:\s+CVX\./,
      );
      const execute = dialog.getByRole('button', { name: 'Execute rebalance' });
      expect(await execute.isDisabled()).toBe(true);
      await screenshot(page, 'uncertain-05-stale-dialog');
      await stale.getByRole('checkbox').check();
      await execute.click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();

      // The service bought the five back: differences the confirmation warned of, not surprises.
      const outcome = page.getByTestId('prediction-outcome');
      await outcome
        .getByTestId('prediction-expected')
        .getByText(/expected, not a surprise/)
        .waitFor();
      expect(await outcome.getByText(/differed from the confirmation's prediction/).count()).toBe(
        0,
      );
      await screenshot(page, 'uncertain-06-stale-outcome');

      const entry = await sentEntry(page, profileId);
      expect(await entry.fact('Stale or unknown target acknowledged')).toBe('Yes');
      expect(await entry.fact('Predicted actions')).toMatch(
        /^Uncertain: the holdings do not fit the last known target/,
      );
      expect(entry.header).toContain('Last known weight');
      for (const words of entry.column('Shown as')) expect(words).not.toMatch(FACT_WORDS);
      for (const action of entry.column('Action')) expect(action).toBe('uncertain');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
