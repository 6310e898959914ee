import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { DeskError } from '../../shared/views';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  gridRows,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  pasteText,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/** What a manager pastes, imports, rescales and starts from, in Chromium on the real desk. */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

const ISSUE_PASTE = 'VOO\t45 %\nAGG\t20,5%\nTLT\t10\n';
const AGG_PROBLEM = 'Row 2 (AGG): weight "20,5" uses a comma: use a dot (20.5)';

async function expectAggMarked(page: Page): Promise<void> {
  await expect
    .poll(() => gridRows(page))
    .toEqual([
      { symbol: 'VOO', weight: '45' },
      { symbol: 'AGG', weight: '20,5' },
      { symbol: 'TLT', weight: '10' },
    ]);
  const problems = page.getByRole('list', { name: 'Problems' });
  await problems.getByRole('button', { name: AGG_PROBLEM }).waitFor();
  expect(
    await page.getByLabel('Draft weight % of AGG', { exact: true }).getAttribute('aria-invalid'),
  ).toBe('true');
  expect(await page.getByText('No problems: the draft can be executed.').count()).toBe(0);
  expect(await page.getByRole('button', { name: 'Execute…' }).isDisabled()).toBe(true);
}

describe('pasting and importing rows', () => {
  withChromium('a line the app cannot read stays a row, marked, across a reload', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'Pasted lines', 'Empty');
    await page.getByRole('button', { name: 'Add row' }).click();
    await pasteText(page, ISSUE_PASTE);
    const notice = page.getByText(
      'Pasted: Read 3 rows: 3 added, 0 updated. 1 has a problem and is marked in the grid: fix or remove it before executing.',
    );
    await notice.waitFor();
    await page.getByText('Line 2 (AGG): weight "20,5" uses a comma: use a dot (20.5)').waitFor();
    await expectAggMarked(page);
    await screenshot(page, 'draft-input-01-pasted-line-marked');

    // The notice goes; the row and its reason stay.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'hidden' });
    await expectAggMarked(page);
    await waitSaved(page);

    // Saved as typed: a reload finds the row as it was, still refused.
    await page.reload();
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await page.getByRole('heading', { name: 'Pasted lines', level: 2 }).waitFor();
    await expectAggMarked(page);

    // Fixing the weight in its cell makes the draft executable.
    await page.getByLabel('Draft weight % of AGG', { exact: true }).fill('20.5');
    await page.getByText('No problems: the draft can be executed.').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium('an imported file keeps its unreadable line as a marked row too', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'Imported lines', 'Empty');
    await page.getByLabel('Import CSV…').setInputFiles({
      name: 'weights.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Symbol;Weight\r\nVOO;45 %\r\nAGG;20,5%\r\nTLT;10\r\n'),
    });
    await page
      .getByText(/^Imported weights\.csv: Read 3 rows: 3 added, 0 updated\. 1 has a problem/)
      .waitFor();
    await expectAggMarked(page);
    await page.close();
  });

  withChromium('a paste or an import over the limits is refused whole, in words', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'Too much', 'Empty');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByLabel('Symbol, row 1', { exact: true }).fill('VOO');
    await page.getByLabel('Draft weight % of VOO', { exact: true }).fill('45');

    // A 2 MB cell: refused at once, nothing added.
    await page.getByLabel('Symbol, row 1', { exact: true }).focus();
    await pasteText(page, `AGG\t1\n${'x'.repeat(2_000_000)}`);
    await page
      .getByText(
        'Pasted: The text has 2,000,006 characters; a paste or import takes at most 1,000,000 (about 1 MB). Nothing was added.',
      )
      .waitFor();
    expect(await gridRows(page)).toEqual([{ symbol: 'VOO', weight: '45' }]);

    // 1,001 rows: refused, not 1,000 of them taken.
    const rows = Array.from({ length: 1001 }, (_, i) => `S${i}\t0.01`).join('\n');
    await page.getByLabel('Import CSV…').setInputFiles({
      name: 'many.tsv',
      mimeType: 'text/tab-separated-values',
      buffer: Buffer.from(rows),
    });
    await page
      .getByText(
        'Imported many.tsv: The text has 1,001 rows; a draft holds at most 1,000. Nothing was added.',
      )
      .waitFor();
    expect(await gridRows(page)).toEqual([{ symbol: 'VOO', weight: '45' }]);
    await page.close();
  });
});

describe('rescaling', () => {
  withChromium(
    '"Rescale so the draft totals 90 %" makes the draft total 90, locked rows kept',
    async () => {
      const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openDraftsTab(page, env!.host.url, 'Core Equity');
      await newDraft(page, 'Rescaled', 'Empty');
      await page.getByRole('button', { name: 'Add row' }).click();
      await pasteText(page, 'VOO\t10\nAGG\t20\nTLT\t30\n');
      await page.getByText(/^Pasted: Read 3 rows/).waitFor();
      await page.getByLabel('Lock VOO (rescale leaves it unchanged)').check();

      const total = page.getByLabel('Rescale so the draft totals');
      await total.fill('90');
      await page.getByRole('button', { name: 'Rescale', exact: true }).click();
      await page
        .getByText(
          'Rescaled: the draft now totals 90 %; the locked rows keep their 10 % and the unlocked rows share the rest.',
        )
        .waitFor();
      expect(await gridRows(page)).toEqual([
        { symbol: 'VOO', weight: '10' },
        { symbol: 'AGG', weight: '32' },
        { symbol: 'TLT', weight: '48' },
      ]);
      expect(await page.locator('dt:text("Total of weights") + dd').textContent()).toBe('90 %');
      await screenshot(page, 'draft-input-02-rescaled');
      await page.close();
    },
  );
});

describe('starting a draft', () => {
  withChromium(
    'from the current target when it is unknown: says why and offers the holdings',
    async () => {
      const { harness, profileId } = env!;
      const strategyId = DEMO_STRATEGY_IDS.dividendGrowth;
      // Added again without its executed version: the holdings are known, the target is not.
      await harness.desk.strategies.remove({ profileId, strategyId });
      const strategy = await harness.desk.strategies.add({ profileId, strategyId });
      expect(strategy.currentTarget).toBeNull();
      const held = strategy.holdings.length;
      expect(held).toBeGreaterThan(0);

      // The desk refuses it in words rather than starting an empty draft.
      const refused = await harness.desk.drafts
        .create({ profileId, strategyId, name: 'x', start: 'target' })
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(DeskError);
      expect((refused as DeskError).message).toMatch(
        /^The current target of this strategy is not known here: .* Start from the holdings instead/,
      );

      const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      await openDraftsTab(page, env!.host.url, 'Dividend Growth');
      const note = page.getByTestId('draft-start-no-target');
      await note
        .getByText('A draft cannot start from the current target: it is not known here')
        .waitFor();
      const start = page.getByRole('form', { name: 'New draft' }).getByLabel('Start');
      expect(await start.inputValue()).toBe('holdings');
      expect(
        await start
          .locator('option', { hasText: 'From the current target (unknown here)' })
          .isDisabled(),
      ).toBe(true);
      await screenshot(page, 'draft-input-03-target-unknown');

      await note
        .getByRole('button', { name: `Start from the holdings (${held} symbols at 0)` })
        .click();
      await page.getByRole('heading', { name: 'Draft 1', level: 2 }).waitFor();
      expect(await gridRows(page)).toEqual(
        strategy.holdings.map((h) => ({ symbol: h.symbol, weight: '0' })),
      );
      await page.close();
    },
  );
});
