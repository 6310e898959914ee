import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { ORDER_REPORT_COLUMNS } from '../../electron/core/reports/columns';
import { parseCsv } from '../support/rfc4180';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  gridRows,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  pasteText,
  rowOf,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/** Drafting, diffing and executing in Chromium against the real desk and sandbox. */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

const core = DEMO_STRATEGY_IDS.coreEquity;

async function weightCell(page: Page, symbol: string) {
  return page.getByLabel(`Draft weight % of ${symbol}`, { exact: true });
}

describe('the Drafts tab', () => {
  withChromium('Core Equity: draft from the target, edit, paste, diff, execute', async () => {
    const { host, harness, profileId } = env!;
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, host.url, 'Core Equity');
    await page.getByText('No drafts yet').waitFor();
    await screenshot(page, 'drafts-01-empty');

    await newDraft(page, 'Rotation', 'From the current target');
    const strategy = await harness.desk.strategies.get({ profileId, strategyId: core });
    const target = strategy.currentTarget!.positions;
    expect(await gridRows(page)).toEqual(
      target.map((p) => ({ symbol: p.symbol, weight: p.weight })),
    );
    await page.getByText('No problems: the draft can be executed.').waitFor();
    await screenshot(page, 'drafts-02-from-target');

    // Keyboard: a weight retyped, arrows down to the next row, Delete sets a weight to 0.
    const first = target[0]!;
    const second = target[1]!;
    await (await weightCell(page, first.symbol)).click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('12.5');
    await page.keyboard.press('ArrowDown');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Draft weight % of ${second.symbol}`);
    await page.keyboard.press('Delete');
    // A bad weight is marked on its row, listed below, and undo takes it back.
    await page.keyboard.type('abc');
    await page
      .getByRole('button', { name: new RegExp(`Row 2 \\(${second.symbol}\\): weight "abc"`) })
      .waitFor();
    expect(await (await weightCell(page, second.symbol)).getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'drafts-03-row-error');
    await page.keyboard.press('ControlOrMeta+Z');
    await expect.poll(async () => (await weightCell(page, second.symbol)).inputValue()).toBe('0');

    // Paste two rows from a spreadsheet into the grid: one new symbol, one changed weight.
    await pasteText(page, `Symbol\tWeight\nGOOGL\t3 %\n${target[2]!.symbol}\t4.25\n`);
    await page.getByText(/Pasted: Read 2 rows: 1 added, 1 updated\./).waitFor();
    const rows = await gridRows(page);
    expect(rows).toContainEqual({ symbol: 'GOOGL', weight: '3' });
    expect(rows).toContainEqual({ symbol: target[2]!.symbol, weight: '4.25' });

    // Leave one held symbol out: it shows as its own flagged row, to be sold.
    const left = target[target.length - 1]!;
    await rowOf(page, left.symbol)
      .getByRole('button', { name: `Remove ${left.symbol}` })
      .click();
    const flagged = page.locator('tbody.left-out tr').filter({ hasText: left.symbol });
    await flagged.getByText('held, not in draft: will be sold').waitFor();
    expect(await flagged.getByText('REMOVE').count()).toBe(1);

    // Predicted actions and cash.
    expect(await rowOf(page, 'GOOGL').getByText('ADD').count()).toBe(1);
    expect(await rowOf(page, first.symbol).getByText('CHANGE').count()).toBe(1);
    expect(await rowOf(page, second.symbol).getByText('REMOVE').count()).toBe(1);
    await waitSaved(page);
    const saved = (await harness.desk.drafts.list({ profileId, strategyId: core }))[0]!;
    const draft = await harness.desk.drafts.get({ draftId: saved.id });
    const expectedCash = 100 - draft.rows.reduce((s, r) => s + Number(r.weight), 0); // test oracle only
    const cashText = await page.locator('dt:text("Cash remainder") + dd').textContent();
    expect(Number(cashText!.replace('%', ''))).toBeCloseTo(expectedCash, 9);
    await screenshot(page, 'drafts-04-diff');

    // Execute through the confirmation.
    await page.getByRole('button', { name: 'Execute…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(
      await dialog.getByRole('row').filter({ hasText: 'GOOGL' }).getByText('ADD').count(),
    ).toBe(1);
    expect(
      await dialog.getByRole('row').filter({ hasText: left.symbol }).getByText('REMOVE').count(),
    ).toBe(1);
    await screenshot(page, 'drafts-05-confirm');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'Execute…' }).click();
    await dialog.getByRole('button', { name: 'Execute rebalance' }).click();
    await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
    await screenshot(page, 'drafts-06-versions-opened');
    const versions = await harness.desk.versions.list({ profileId, strategyId: core });
    const created = versions.filter((v) => v.origin === 'created');
    expect(created).toHaveLength(1);
    const detail = await harness.desk.versions.get({
      profileId,
      strategyId: core,
      versionId: created[0]!.id,
    });
    expect(detail.positions.find((p) => p.symbol === 'GOOGL')?.weight).toBe('3');
    expect(detail.positions.find((p) => p.symbol === left.symbol)?.weight).toBe('0');

    // The detail follows the rebalance live to COMPLETE; its CSV matches the version.
    await page
      .locator('ol[aria-label="Rebalance steps"] li[data-status="COMPLETE"].complete')
      .waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const pathText = page.getByTestId('export-path');
    await pathText.waitFor();
    await screenshot(page, 'drafts-06b-complete-exported');
    const done = await harness.desk.versions.get({
      profileId,
      strategyId: core,
      versionId: detail.id,
    });
    expect(done.status).toBe('COMPLETE');
    const [header, ...lines] = parseCsv(
      readFileSync((await pathText.textContent())!.trim(), 'utf8'),
    );
    expect(header).toEqual([...ORDER_REPORT_COLUMNS]);
    const at = (name: (typeof ORDER_REPORT_COLUMNS)[number]) => ORDER_REPORT_COLUMNS.indexOf(name);
    expect(
      lines.map((l) => [l[at('order_id')], l[at('status')], l[at('filled_quantity')]]).sort(),
    ).toEqual(done.orders.map((o) => [o.id, o.status, o.filled_quantity ?? '']).sort());
    expect(problems).toEqual([]);
    await page.close();
  });
});
