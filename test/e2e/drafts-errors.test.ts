import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS, DEMO_VERSION_IDS } from '../../electron/sandbox';
import { sandboxAdmin } from '../support/desk-harness';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  rowOf,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/** Execute failures shown where they belong: the row, the blocking version. */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

describe('execute errors in the Drafts tab', () => {
  withChromium('an unknown symbol is marked on its row', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, env!.host.url, 'Fresh Start');
    await newDraft(page, 'First', 'Empty');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.keyboard.type('zzzq');
    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await page.keyboard.press('Enter');
    await page.keyboard.type('AAPL');
    // At the end of the symbol, ArrowRight moves to the weight cell.
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('10');
    await page.getByText('No problems: the draft can be executed.').waitFor();
    await page.getByRole('button', { name: 'Execute…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();
    await page.getByText('The service does not know these symbols: ZZZQ').waitFor();
    const row = rowOf(page, 'ZZZQ');
    expect(await row.getAttribute('title')).toContain('the service does not know the symbol ZZZQ');
    expect(await row.getByLabel('Symbol, row 1').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Execute…' }).isDisabled()).toBe(true);
    await screenshot(page, 'drafts-07-unknown-symbol');
    // Clicking the problem puts the focus on the row's symbol; correcting it clears the mark.
    await page.getByRole('button', { name: /Row 1 \(ZZZQ\): the service does not know/ }).click();
    await page.keyboard.type('MSFT');
    await page.getByText('No problems: the draft can be executed.').waitFor();
    const versions = await env!.harness.desk.versions.list({
      profileId: env!.profileId,
      strategyId: DEMO_STRATEGY_IDS.freshStart,
    });
    expect(versions).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  withChromium(
    'Dividend Growth: an unexecuted version is offered for deletion once shown',
    async () => {
      const { harness, profileId } = env!;
      const strategyId = DEMO_STRATEGY_IDS.dividendGrowth;
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Dividend Growth');
      await newDraft(page, 'Trim', 'From the current target');
      const weight = page.getByLabel('Draft weight % of JNJ', { exact: true });
      await weight.fill('9');
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      await page.getByRole('button', { name: 'Execute…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();
      const blocking = DEMO_VERSION_IDS.dividendGrowthScheduled;
      const short = `${blocking.slice(0, 8)}…`;
      const offer = page.getByRole('button', { name: `See version ${short} before deleting it` });
      await offer.waitFor();
      await screenshot(page, 'drafts-08-unexecuted-version');
      await offer.click();
      // Shown first (read from the service), then deleted by the button that names it.
      const shown = page.getByRole('dialog', {
        name: `Unexecuted version ${short} of Dividend Growth`,
      });
      await shown.getByRole('table', { name: `Positions of version ${short}` }).waitFor();
      await shown
        .getByRole('button', {
          name: new RegExp(`^Delete version ${short}, scheduled for .+, and execute this draft$`),
        })
        .click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      await screenshot(page, 'drafts-09-after-delete-and-execute');
      const created = (await harness.desk.versions.list({ profileId, strategyId })).filter(
        (v) => v.origin === 'created',
      );
      expect(created).toHaveLength(1);
      const detail = await harness.desk.versions.get({
        profileId,
        strategyId,
        versionId: created[0]!.id,
      });
      expect(detail.positions.find((p) => p.symbol === 'JNJ')?.weight).toBe('9');
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'an unclear outcome becomes a journal entry, retried with the same key',
    async () => {
      const { harness, profileId } = env!;
      const strategyId = DEMO_STRATEGY_IDS.coreEquity;
      const base = harness.sandbox()!.baseUrl;
      const accepted = async () =>
        (
          (await sandboxAdmin(base, 'GET', '/sandbox/counters')) as {
            data: { executions_accepted: Record<string, number> };
          }
        ).data.executions_accepted[strategyId] ?? 0;
      const page = await env!.browser.newPage({ viewport: { width: 1360, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Core Equity');
      await newDraft(page, 'Unclear', 'From the current target');
      await page.getByLabel('Draft weight % of AAPL', { exact: true }).fill('14');
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      const before = await accepted();
      // The service commits the execution, then the connection drops before any answer.
      await sandboxAdmin(base, 'PUT', '/sandbox/faults', { drop_after_commit_next: 1 });
      await page.getByRole('button', { name: 'Execute…' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();
      const journal = page.getByRole('region', { name: 'Executions with an unknown outcome' });
      const retry = journal.getByRole('button', { name: 'Retry with the same key' });
      await retry.waitFor();
      await screenshot(page, 'drafts-09b-unknown-outcome');
      expect(await accepted()).toBe(before + 1);
      await retry.click();
      await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
      // The same key replayed the first answer: still one accepted execution, now known here.
      expect(await accepted()).toBe(before + 1);
      expect(await harness.desk.versions.journal({ profileId })).toEqual([]);
      const created = (await harness.desk.versions.list({ profileId, strategyId })).filter(
        (v) => v.origin === 'created',
      );
      expect(created).toHaveLength(1);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
