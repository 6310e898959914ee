import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import { chromiumPart, openDraftsEnv, type DraftsEnv } from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/** The model library in Chromium against the real desk, sandbox and SQLite. */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

const core = DEMO_STRATEGY_IDS.coreEquity;

describe('the Models screen', () => {
  withChromium('a model from a draft, a new revision, a demo strategy following it', async () => {
    const { host, harness, profileId } = env!;
    // A draft of Core Equity left as its current target: the model starts equal to it.
    await harness.desk.drafts.create({
      profileId,
      strategyId: core,
      name: 'As it is',
      start: 'target',
    });
    const target = (await harness.desk.strategies.get({ profileId, strategyId: core }))
      .currentTarget!.positions;
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page.getByText('No model yet.').waitFor();

    const form = page.getByRole('form', { name: 'New model' });
    await form.getByLabel('New model').fill('Core sleeve');
    await form.getByLabel('Start').selectOption({ label: 'from a draft' });
    await form.getByLabel('Strategy').selectOption({ label: 'Core Equity' });
    await expect.poll(() => form.getByLabel('Draft').inputValue()).not.toBe('');
    await form.getByRole('button', { name: 'Create model' }).click();
    await page.getByRole('heading', { name: 'Core sleeve', level: 2 }).waitFor();
    await page.getByText('As revision 1').waitFor();
    await page.getByText('From draft “As it is”').waitFor();

    // Assign Core Equity: its known target equals revision 1.
    const assign = page.getByRole('form', { name: 'Assign strategies' });
    await assign.getByLabel('Core Equity').check();
    await assign.getByRole('button', { name: /^Assign/ }).click();
    const row = page.locator(`tr[data-strategy="${core}"]`);
    await row.getByText('IN SYNC', { exact: true }).waitFor();
    await row.getByText('revision 1 (the latest)').waitFor();
    await screenshot(page, 'models-01-in-sync');

    // Edit a weight in the grid, save revision 2 with a note: Core Equity is now out of sync.
    const first = target[0]!;
    const cell = page.getByLabel(`Weight % of ${first.symbol}`, { exact: true });
    await cell.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('1');
    await page.getByText('Unsaved changes').waitFor();
    await page.getByLabel('Note').fill('Less of the first');
    await page.getByRole('button', { name: 'Save as a new revision' }).click();
    await page.getByText('As revision 2').waitFor();
    await page.getByRole('cell', { name: 'Less of the first' }).waitFor();
    await row.getByText('OUT OF SYNC', { exact: true }).waitFor();
    await row.getByText('revision 2 (the latest)').waitFor();
    await expect
      .poll(() => row.locator('.diff').allInnerTexts())
      .toEqual([`${first.symbol} model 1 · target ${first.weight}`]);
    await screenshot(page, 'models-02-out-of-sync');

    // The contract agrees: the strategy follows the model, out of sync in that one symbol.
    expect(await harness.desk.models.ofStrategy({ profileId, strategyId: core })).toMatchObject({
      modelName: 'Core sleeve',
      revision: { number: 2, note: 'Less of the first' },
      sync: {
        state: 'out-of-sync',
        differences: [{ symbol: first.symbol, modelWeight: '1', targetWeight: first.weight }],
      },
    });
    expect(problems).toEqual([]);
    await page.close();
  });
  withChromium('a revision’s note gets the table’s width, at 1400 and 1024', async () => {
    const { host, harness, profileId } = env!;
    const desk = harness.desk;
    const model = await desk.models.create({
      name: 'Noted sleeve',
      start: { kind: 'strategy', profileId, strategyId: core },
    });
    const { rows, revisions } = await desk.models.get({ modelId: model.id });
    const note =
      'Less of the last symbol after the committee of Tuesday: the weight moves to cash until the quarterly review says otherwise';
    await desk.models.saveRevision({
      modelId: model.id,
      rows: rows.slice(0, -1),
      note,
      basedOn: revisions[0]!.id,
    });
    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Models', exact: true }).click();
    await page.getByRole('button', { name: /^Noted sleeve/ }).click();
    const table = page.getByRole('region', { name: 'Revisions' }).getByRole('table').first();
    const cell = table.getByRole('cell', { name: note });
    await cell.waitFor();
    for (const size of [
      { width: 1400, height: 900 },
      { width: 1024, height: 700 },
    ]) {
      await page.setViewportSize(size);
      const [noteWidth, tableWidth] = [
        (await cell.boundingBox())!.width,
        (await table.boundingBox())!.width,
      ];
      // The note is read across the table, not folded into a column of short lines.
      expect(noteWidth / tableWidth, `at ${size.width}`).toBeGreaterThan(0.85);
      const lines = await cell.evaluate((td) => {
        const text = document.createRange();
        text.selectNodeContents(td);
        return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines, `at ${size.width}`).toBeLessThanOrEqual(size.width === 1400 ? 2 : 3);
      // The hash in at most four lines of sixteen, not a column of a few characters.
      const hashLines = await table
        .locator('code.hash')
        .first()
        .evaluate((code) => {
          const text = document.createRange();
          text.selectNodeContents(code);
          return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
        });
      expect(hashLines, `hash at ${size.width}`).toBeLessThanOrEqual(4);
      // Export stays in view.
      const exportButton = await page
        .getByRole('button', { name: 'Export revision 2 as CSV' })
        .boundingBox();
      expect(exportButton!.x + exportButton!.width, `at ${size.width}`).toBeLessThanOrEqual(
        size.width,
      );
    }
    await screenshot(page, 'models-03-revision-note-1024');
    expect(problems).toEqual([]);
    await page.close();
  });
});
