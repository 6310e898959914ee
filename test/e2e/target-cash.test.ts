import Decimal from 'decimal.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { setTargetCash } from '../../shared/draft/cash';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox/demo-data';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  gridRows,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/**
 * "Set target cash to X %" in the draft editor and the model editor, in Chromium against the
 * browser host, the real desk, the sandbox and SQLite: the unlocked rows scale so the weights
 * leave exactly X (decimals exact, as shared/draft/cash.ts computes them), a locked row keeps its
 * weight, each moved row is named, and a cash the rules refuse is said in words, nothing changed.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

async function setCash(page: Page, cash: string): Promise<void> {
  await page.getByRole('button', { name: 'Target cash…' }).click();
  const form = page.getByRole('form', { name: 'Set target cash' });
  await form.getByLabel('Set target cash to').fill(cash);
  await form.getByLabel('Set target cash to').press('Enter');
}

const sum = (rows: readonly { weight: string }[]) =>
  rows.reduce((total, r) => total.plus(r.weight), new Decimal(0)).toString();

describe('set target cash', () => {
  withChromium('in a draft: exact, the locked row kept, a refused cash in words', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'More cash', 'From the current target');
    const before = await gridRows(page);
    const spy = before.findIndex((r) => r.symbol === 'SPY');
    await page.getByLabel('Lock SPY (rescale leaves it unchanged)').check();

    // Refused in words, nothing changed.
    await setCash(page, '1');
    await page
      .getByText(
        'Target cash must be from 2 to 100 % (the rules keep at least 2 % cash); 1 % is not.',
      )
      .waitFor();
    expect(await gridRows(page)).toEqual(before);

    await setCash(page, '20');
    const expected = setTargetCash(
      before.map((r) => ({ ...r, locked: false })),
      '20',
      new Set([spy]),
    );
    if (!expected.ok) throw new Error(expected.error);
    await expect
      .poll(() => gridRows(page))
      .toEqual(expected.rows.map((r) => ({ symbol: r.symbol, weight: r.weight })));
    const after = await gridRows(page);
    expect(after[spy]).toEqual(before[spy]);
    expect(sum(after)).toBe('80');
    const footer = page.getByRole('region', { name: 'Draft totals and problems' });
    expect(await footer.textContent()).toMatch(/Cash remainder\s*20 %/);
    await page
      .getByText(
        /^Target cash set to 20 % \(it was 12 %\): 6 rows scaled; the locked rows keep their weight\./,
      )
      .waitFor();
    await page.getByText(`AAPL: 15 % → ${expected.rows[0]!.weight} %`).waitFor();
    await waitSaved(page);
    // The tools keep to one line in a 1024-pixel window: Redo beside Target cash….
    const [cashBox, redoBox] = await Promise.all([
      page.getByRole('button', { name: 'Target cash…' }).boundingBox(),
      page.getByRole('button', { name: 'Redo' }).boundingBox(),
    ]);
    expect(Math.abs(cashBox!.y - redoBox!.y)).toBeLessThan(4);
    await screenshot(page, 'target-cash-draft-1024x700');
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium('in a model: the rows scaled to leave the cash asked', async () => {
    const { host, harness } = env!;
    const model = await harness.desk.models.create({
      name: 'Cash sleeve',
      start: {
        kind: 'strategy',
        profileId: env!.profileId,
        strategyId: DEMO_STRATEGY_IDS.coreEquity,
      },
    });
    const page = await env!.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page
      .getByRole('navigation', { name: 'Models' })
      .getByRole('button', { name: /^Cash sleeve/ })
      .click();
    await page.getByRole('heading', { name: 'Cash sleeve', level: 2 }).waitFor();

    await setCash(page, '10.5');
    const expected = setTargetCash(
      model.rows.map((r) => ({ symbol: r.symbol, weight: r.weight, locked: false })),
      '10.5',
    );
    if (!expected.ok) throw new Error(expected.error);
    await page.getByText('Unsaved changes').waitFor();
    const footer = page.getByRole('region', { name: 'Model totals and problems' });
    expect(await footer.textContent()).toMatch(
      /Total of weights\s*89\.5 %\s*Cash remainder\s*10\.5 %/,
    );
    for (const row of expected.rows)
      expect(await page.getByLabel(`Weight % of ${row.symbol}`, { exact: true }).inputValue()).toBe(
        row.weight,
      );
    expect(problems).toEqual([]);
    await page.close();
  });
});
