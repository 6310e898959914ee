import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_BOOK_STRATEGY_IDS as BOOK, DEMO_MODEL, HALTED_INCOME } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';
import { parseCsv } from '../support/rfc4180';

/**
 * A batch end to end, in Chromium against the browser host, the real desk, the sandbox over HTTP
 * and SQLite, on the sandbox profile as the app ships it (the demo model's followers in its
 * book): a model made from a draft, assigned from the book, one review holding every case,
 * acknowledged, executed and followed to the end, both exports, the activity entries and chain.
 */
const withChromium = itNeeds(chromiumPart);

const FOLLOWERS = DEMO_MODEL.followers.map((f) => f.strategyId);
const bookRow = (page: Page, id: string) =>
  page.getByRole('table', { name: 'Book' }).locator(`tr[data-strategy="${id}"]`);
const batchRow = (page: Page, id: string) =>
  page.getByRole('region', { name: 'Batch' }).locator(`tr[data-strategy="${id}"]`);

describe('a batch in the app', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 5, demoModel: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'a model from a known target flagged changed elsewhere warns, offers to read first, and is made only knowingly',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      const form = page.getByRole('form', { name: 'New model' });
      await form.getByLabel('New model').fill('From Global');
      await form.getByLabel('Start').selectOption({ label: "from a strategy's known target" });
      await form.getByLabel('Strategy').selectOption({ label: 'Global Growth' });
      await form.getByRole('button', { name: 'Create model' }).click();
      // Before any batch: Global Growth holds TSLA, which its known target does not.
      const doubt = form.getByRole('alert', { name: 'Known target in doubt' });
      await doubt.getByText(/may be out of date: it holds TSLA/).waitFor();
      await screenshot(page, 'batches-06-model-from-uncertain');
      // Read again, it still holds TSLA: still in doubt, nothing made.
      const syncedAt = () =>
        app!.harness.desk.store.strategies.get(app!.profileId, BOOK.globalGrowth)!.synced_at;
      const before = syncedAt();
      await doubt.getByRole('button', { name: 'Read the strategy first' }).click();
      await expect.poll(syncedAt).not.toBe(before);
      await expect
        .poll(() => doubt.getByRole('button', { name: 'Read the strategy first' }).isEnabled())
        .toBe(true);
      await doubt.getByText(/may be out of date: it holds TSLA/).waitFor();
      expect(await page.getByRole('heading', { name: 'From Global', level: 2 }).count()).toBe(0);
      await doubt.getByRole('button', { name: 'Use the old target anyway' }).click();
      await page.getByRole('heading', { name: 'From Global', level: 2 }).waitFor();
      await page.getByText(/flagged changed elsewhere when copied/).waitFor();
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium(
    'a model from a draft, assigned from the book, one review of every case, executed, followed, exported, logged',
    async () => {
      const { harness, profileId } = app!;
      const desk = harness.desk;
      // A draft of Bond Ladder left as its current target (AGG 40, BND 30, TLT 20).
      await desk.drafts.create({
        profileId,
        strategyId: BOOK.bondLadder,
        name: 'Bond core',
        start: 'target',
      });
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const problems = collectPageProblems(page);
      // The system notification as the page asks for it: granted, and what it says kept.
      await page.addInitScript(() => {
        const told: string[] = [];
        Object.assign(window, { told });
        class Told {
          static permission = 'granted';
          static requestPermission = () => Promise.resolve('granted');
          constructor(title: string, options: { body: string }) {
            told.push(`${title}: ${options.body}`);
          }
        }
        Object.assign(window, { Notification: Told });
      });
      await page.goto(app!.host.url);

      // The model, from the draft.
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      const form = page.getByRole('form', { name: 'New model' });
      await form.getByLabel('New model').fill('Bond sleeve');
      await form.getByLabel('Start').selectOption({ label: 'from a draft' });
      await form.getByLabel('Strategy').selectOption({ label: 'Bond Ladder' });
      await expect.poll(() => form.getByLabel('Draft').inputValue()).not.toBe('');
      await form.getByRole('button', { name: 'Create model' }).click();
      await page.getByRole('heading', { name: 'Bond sleeve', level: 2 }).waitFor();
      await page.getByText('From draft “Bond core”').waitFor();

      // Assigned from the book: the demo model's seven followers move to it.
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      await bookRow(page, BOOK.bondLadder).getByText('Demo model').waitFor();
      for (const id of FOLLOWERS) await bookRow(page, id).getByRole('checkbox').check();
      await page.getByRole('button', { name: 'Assign model…' }).click();
      const assign = page.getByRole('form', { name: 'Assign a model' });
      await assign
        .getByLabel('Model to follow')
        .selectOption({ label: 'Bond sleeve (revision 1)' });
      await assign.getByRole('button', { name: 'Assign 7' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: '7 strategies follow “Bond sleeve” now.' })
        .waitFor();
      await bookRow(page, BOOK.bondLadder).getByText('Bond sleeve').waitFor();
      await expect
        .poll(() => bookRow(page, BOOK.bondLadder).locator('td.model').getAttribute('data-sync'))
        .toBe('in-sync');
      await expect
        .poll(() => bookRow(page, BOOK.globalGrowth).locator('td.model').getAttribute('data-sync'))
        .toBe('changed-elsewhere');
      await expect
        .poll(() =>
          bookRow(page, BOOK.balancedGrowth).locator('td.model').getAttribute('data-sync'),
        )
        .toBe('target-unknown');
      await screenshot(page, 'batches-01-book-models');

      // One review of the seven, opened from the book: every case.
      await page.getByRole('button', { name: 'Review with its model…' }).click();
      const batch = page.getByRole('region', { name: 'Batch' });
      await batch.getByRole('heading', { name: 'Batch of “Bond sleeve” revision 1' }).waitFor();
      await batch
        .getByTestId('batch-words')
        .filter({ hasText: 'reviewed: 4 to send, 3 excluded' })
        .waitFor();
      const state = (id: string) => batchRow(page, id).getAttribute('data-state');
      await expect.poll(() => state(BOOK.bondLadder)).toBe('excluded');
      await batchRow(page, BOOK.bondLadder)
        .getByText(/in sync/)
        .waitFor();
      expect(await state(BOOK.legacyBalanced)).toBe('excluded');
      await batchRow(page, BOOK.legacyBalanced)
        .getByText(/Liquidate-only, and the model raises a weight/)
        .waitFor();
      expect(await state(BOOK.techLeaders)).toBe('excluded');
      await batchRow(page, BOOK.techLeaders)
        .getByText(/unexecuted version .* is in the way/)
        .waitFor();
      for (const id of [
        BOOK.balancedRetirement,
        BOOK.balancedGrowth,
        BOOK.globalGrowth,
        HALTED_INCOME.strategyId,
      ])
        expect(await state(id)).toBe('ready');
      await batchRow(page, BOOK.globalGrowth)
        .getByText(/changed elsewhere/)
        .waitFor();
      await batchRow(page, BOOK.balancedGrowth)
        .getByText(/No executed version of this strategy is known here/)
        .waitFor();
      await batchRow(page, HALTED_INCOME.strategyId)
        .getByText(/^Sells whole: HALTED \d/)
        .waitFor();
      await batch
        .getByTestId('batch-sells-whole')
        .getByText('Sells QQQ whole in 2 strategies')
        .waitFor();
      // The uncertain ones need the manager's word, by name, before Execute is possible.
      const execute = batch.getByRole('button', { name: 'Execute 4 strategies' });
      expect(await execute.isDisabled()).toBe(true);
      await screenshot(page, 'batches-02-review');
      for (const name of ['Balanced Growth', 'Global Growth'])
        await batch
          .getByLabel(`I accept that the predicted actions for ${name} are uncertain`)
          .check();
      await execute.click();
      // Asked once more, naming what goes out: sent only once confirmed.
      await page
        .getByRole('dialog', { name: 'Send 4 strategies now?' })
        .getByRole('button', { name: 'Send 4 strategies' })
        .click();

      // Followed to the end: each version's status as the sandbox completes it; HALTED fails.
      for (const id of [BOOK.balancedRetirement, BOOK.balancedGrowth, BOOK.globalGrowth])
        await batchRow(page, id)
          .getByText('COMPLETE', { exact: true })
          .waitFor({ timeout: 30_000 });
      await batchRow(page, HALTED_INCOME.strategyId)
        .getByText('FAILED', { exact: true })
        .waitFor({ timeout: 30_000 });
      // The batch says how its versions ended, the failure first: words, counts, notification.
      await batch
        .getByTestId('batch-words')
        .filter({ hasText: '4 sent: 1 FAILED, 3 COMPLETE' })
        .waitFor({ timeout: 30_000 });
      expect(
        await batch.getByTestId('batch-outcomes').locator('[data-outcome]').allTextContents(),
      ).toEqual(['1 FAILED', '3 COMPLETE']);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { told: string[] }).told))
        .toEqual(['Batch of “Bond sleeve” ended: 4 sent: 1 FAILED, 3 COMPLETE']);
      await expect
        .poll(async () => (await desk.batches.list({ profileId }))[0]?.endedAt ?? null, {
          timeout: 30_000,
        })
        .not.toBeNull();
      const [summary] = await desk.batches.list({ profileId });
      const ended = await desk.batches.get({ batchId: summary!.id });
      expect(ended.counts).toMatchObject({ accepted: 4, excluded: 3 });
      // The totals: quantities per symbol and side, never a sum across symbols; HALTED's sell
      // failed, all of it left; orders counted per status.
      const totals = batch.getByTestId('batch-totals');
      const halted = totals.locator('tr[data-symbol="HALTED"][data-side="SELL"]');
      const haltedCells = await halted.locator('td').allTextContents();
      expect(haltedCells[2]).toBe('0');
      expect(haltedCells[3]).toBe(haltedCells[1]);
      expect(await totals.locator('tbody tr').count()).toBe(ended.totals.quantities.length);
      await totals.getByTestId('batch-order-statuses').getByText('1 FAILED').waitFor();
      await screenshot(page, 'batches-03-ended');

      // Both exports: every order of the batch with batch, model and revision; one row per strategy.
      await batch.getByRole('button', { name: 'Export orders CSV…' }).click();
      const savedOrders = batch
        .getByRole('status')
        .filter({ hasText: /Saved\s+\d+\s+orders?\s+as CSV/ });
      await savedOrders.waitFor();
      const ordersPath = (await savedOrders.getByTestId('batch-orders-path').textContent())!;
      const orders = parseCsv(readFileSync(ordersPath, 'utf8'));
      const header = orders[0]!;
      expect(header.slice(-5)).toEqual([
        'batch_id',
        'model_id',
        'model_name',
        'revision_number',
        'revision_hash',
      ]);
      const col = (name: string) => header.indexOf(name);
      const body = orders.slice(1).filter((r) => r.length > 1);
      const versionOrders = ended.items
        .filter((i) => i.versionId !== null)
        .reduce(
          (n, i) =>
            n + desk.store.versions.get(profileId, i.versionId!, { orders: true })!.orders!.length,
          0,
        );
      expect(body).toHaveLength(versionOrders);
      for (const row of body) {
        expect(row[col('batch_id')]).toBe(ended.id);
        expect(row[col('model_name')]).toBe('Bond sleeve');
        expect(row[col('revision_hash')]).toBe(ended.revisionHash);
      }
      expect(
        body.some(
          (r) =>
            r[col('strategy_id')] === HALTED_INCOME.strategyId && r[col('symbol')] === 'HALTED',
        ),
      ).toBe(true);

      await batch.getByRole('button', { name: 'Export summary CSV…' }).click();
      const savedSummary = batch
        .getByRole('status')
        .filter({ hasText: /Saved\s+7\s+strategies\s+as CSV.*summary/i });
      await savedSummary.waitFor();
      // The orders' export is still told beside it: each export its own status.
      await savedOrders.waitFor();
      const summaryPath = (await savedSummary.getByTestId('batch-summary-path').textContent())!;
      const lines = parseCsv(readFileSync(summaryPath, 'utf8')).filter((r) => r.length > 1);
      expect(lines[0]).toEqual([
        'batch_id',
        'model_name',
        'revision_number',
        'position',
        'strategy_id',
        'strategy_name',
        'outcome',
        'reason',
        'version_id',
        'version_status',
        'orders',
        'orders_filled',
        'orders_failed',
      ]);
      const byName = new Map(lines.slice(1).map((r) => [r[5], r]));
      expect(byName.size).toBe(7);
      expect(byName.get('Halted Income')?.[6]).toBe('sent, failed or partial');
      expect(byName.get('Balanced Retirement')?.[6]).toBe('sent');
      expect(byName.get('Halted Income')?.[9]).toBe('FAILED');
      expect(byName.get('Bond Ladder')?.[6]).toBe('excluded');

      // The activity: the review, each execution's entry referring to it, the end; the chain holds.
      const entries = async (kind: 'batch-reviewed' | 'batch-ended' | 'execution-sent') =>
        (await desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 100 })).entries;
      const [reviewed] = await entries('batch-reviewed');
      expect(JSON.parse(desk.store.activity.get(reviewed!.seq)!.payload)).toMatchObject({
        batchId: ended.id,
        hash: ended.revisionHash,
      });
      for (const item of ended.items.filter((i) => i.journalId !== null)) {
        const sent = desk.store.activity.executionSentSeq(item.journalId!)!;
        expect(desk.store.activity.get(sent)!.refers_to).toBe(reviewed!.seq);
      }
      expect(ended.items.filter((i) => i.journalId !== null)).toHaveLength(4);
      await expect.poll(async () => (await entries('batch-ended')).length).toBe(1);
      const [end] = await entries('batch-ended');
      expect(desk.store.activity.get(end!.seq)!.refers_to).toBe(reviewed!.seq);
      await page.getByRole('button', { name: 'Profile activity' }).click();
      // The end's entry says how the versions ended, in its summary and its Outcome.
      const endRow = page.locator('tr', { hasText: 'Batch ended: 4 sent: 1 FAILED, 3 COMPLETE' });
      await endRow.waitFor();
      expect(await endRow.locator('td.outcome').textContent()).toBe('1 FAILED, 3 COMPLETE');
      await page.getByRole('button', { name: 'Check again' }).click();
      await page.getByRole('status').filter({ hasText: 'The chain held' }).waitFor();
      expect((await desk.activity.verify({})).ok).toBe(true);
      await screenshot(page, 'batches-04-activity');
      expect(problems).toEqual([]);
    },
    180_000,
  );

  withChromium(
    'an ended batch reopened at 1024×700 shows its outcomes, totals and exports above its lines, the failed line first',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: 'Batches of this profile' }).click();
      await page
        .getByRole('table', { name: 'Batches of this profile' })
        .getByRole('button', { name: /^Open the batch of “Bond sleeve” revision 1/ })
        .click();
      const batch = page.getByRole('region', { name: 'Batch' });
      await batch
        .getByTestId('batch-words')
        .filter({ hasText: '4 sent: 1 FAILED, 3 COMPLETE' })
        .waitFor();
      // The line that failed comes first.
      expect(
        await batch
          .getByRole('table', { name: 'Strategies of the batch' })
          .locator('tbody tr')
          .first()
          .getAttribute('data-strategy'),
      ).toBe(HALTED_INCOME.strategyId);
      // Seven lines fill more than the window: what the batch came to is read before them.
      const lines = (await batch
        .getByRole('table', { name: 'Strategies of the batch' })
        .boundingBox())!;
      expect(lines.y + lines.height).toBeGreaterThan(700);
      const inWindow = async (name: string, box: { y: number; height: number } | null) => [
        name,
        box !== null && box.y >= 0 && box.y + box.height <= 700,
      ];
      const shown = [
        await inWindow('outcomes', await batch.getByTestId('batch-outcomes').boundingBox()),
        await inWindow('statuses', await batch.getByTestId('batch-order-statuses').boundingBox()),
        await inWindow(
          'orders export',
          await batch.getByRole('button', { name: 'Export orders CSV…' }).boundingBox(),
        ),
        await inWindow(
          'summary export',
          await batch.getByRole('button', { name: 'Export summary CSV…' }).boundingBox(),
        ),
      ];
      expect(shown).toEqual([
        ['outcomes', true],
        ['statuses', true],
        ['orders export', true],
        ['summary export', true],
      ]);
      await screenshot(page, 'batches-07-reopened-1024');
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );

  withChromium(
    'after the batch: a failed rebalance is not in sync, and the counts say what they count',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      // Halted Income's known target is the model's, but its rebalance to it failed.
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      const haltedModel = bookRow(page, HALTED_INCOME.strategyId).locator('td.model');
      await expect.poll(() => haltedModel.getAttribute('data-sync')).toBe('rebalance-failed');
      await haltedModel.getByText('REBALANCE FAILED').waitFor();
      await expect
        .poll(() => bookRow(page, BOOK.bondLadder).locator('td.model').getAttribute('data-sync'))
        .toBe('in-sync');

      // The status bar: the newest and the oldest read (the sandbox's first three were not read
      // by the batch), and attention counted over every profile, as it says.
      const status = page.getByRole('contentinfo', { name: 'Status' });
      const sync = status.locator('[data-status-item="sync"]');
      await expect
        .poll(async () => (await sync.getAttribute('title'))!)
        .toMatch(
          /any strategy of any profile: \S+Z\), and when it read the one read longest ago \(\S+Z\)/,
        );
      // Shown only when it reads differently from the latest (never "01:19 · oldest 01:19").
      const [, latest, oldest] = (await sync.textContent())!
        .replace(/\s+/g, ' ')
        .trim()
        .match(/^Latest sync (\S+(?: \S+)?)(?: · oldest (.+))?$/)!;
      expect(oldest).not.toBe(latest);
      await status
        .locator('[data-status-item="attention"]')
        .getByText(/need(s)? attention, all profiles/)
        .waitFor();

      // The models list counts the followers in this profile, and says so.
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      const models = page.getByRole('navigation').filter({ hasText: 'Bond sleeve' });
      await models
        .getByRole('button', { name: /Bond sleeve revision 1 · 7 strategies in this profile/ })
        .waitFor();
      // Its seven followers moved to Bond sleeve: none follows the demo model here any more.
      await models
        .getByRole('button', { name: /Demo model revision 1 · 0 strategies in this profile/ })
        .waitFor();
      await screenshot(page, 'batches-05-after');
      expect(problems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
