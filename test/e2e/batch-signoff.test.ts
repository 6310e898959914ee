import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_BOOK_STRATEGY_IDS as BOOK, DEMO_MODEL, HALTED_INCOME } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The batch sign-off in Chromium against the browser host, the real desk, the sandbox over HTTP
 * and SQLite, with the demo model's seven followers: the review a screen of its own, readable
 * without sideways scrolling, every review starting from nothing, each line's confirmation read
 * only, one act acknowledging a named list, Execute asking once more before anything is sent,
 * and every batch reachable again from the book, Models and the activity log after a reload.
 */
const withChromium = itNeeds(chromiumPart);

const FOLLOWERS = DEMO_MODEL.followers.map((f) => f.strategyId);
const batchView = (page: Page) => page.getByRole('region', { name: 'Batch', exact: true });
const batchRow = (page: Page, id: string) => batchView(page).locator(`tr[data-strategy="${id}"]`);

/** Nothing of the page lies past its right edge: no sideways scroll anywhere. */
async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const wide = [document.documentElement, ...document.querySelectorAll('main, main *')].filter(
      // (a visually hidden label is a 1 px box: not a scroller)
      (el) =>
        el.clientWidth > 1 &&
        el.scrollWidth > el.clientWidth + 1 &&
        getComputedStyle(el).overflowX !== 'visible',
    );
    return {
      document: document.documentElement.scrollWidth - window.innerWidth,
      scrollers: wide.map((el) => `${el.tagName}.${el.className}`),
    };
  });
  expect(overflow.document).toBeLessThanOrEqual(0);
  expect(overflow.scrollers).toEqual([]);
  const width = page.viewportSize()!.width;
  for (const id of FOLLOWERS) {
    const row = batchRow(page, id);
    const reason = await row.getByTestId('batch-reason').boundingBox();
    expect(reason!.x + reason!.width, `reason of ${id}`).toBeLessThanOrEqual(width);
    const open = row.getByRole('button', { name: /^Confirmation of / });
    if ((await open.count()) === 0) continue;
    const box = await open.boundingBox();
    expect(box!.x + box!.width, `Open of ${id}`).toBeLessThanOrEqual(width);
  }
}

describe('signing off a batch in the app', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 5, demoModel: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'a review of its own, readable, from nothing each time, asked once more, reachable after a reload',
    async () => {
      const { harness, profileId } = app!;
      const desk = harness.desk;
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      const executes: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/batches.execute')) executes.push(r.url());
      });
      await page.goto(app!.host.url);

      const reviewFromModels = async () => {
        await page.getByRole('button', { name: 'Models', exact: true }).click();
        await page.getByRole('button', { name: /^Demo model/ }).click();
        const part = page.getByRole('region', { name: 'Strategies following this model' });
        for (const id of FOLLOWERS)
          await part.locator(`tr[data-strategy="${id}"]`).getByRole('checkbox').check();
        await part.getByRole('button', { name: 'Review chosen (7)…' }).click();
        const heading = batchView(page).getByRole('heading', {
          name: 'Batch of “Demo model” revision 1',
        });
        await heading.waitFor();
        // The review is a view of its own, and the focus is on it.
        await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
        await batchView(page)
          .getByTestId('batch-words')
          .filter({ hasText: 'reviewed: 4 to send, 3 excluded' })
          .waitFor();
      };

      // The first review: read, looked into, acknowledged, stopped at the first failure, not sent.
      await reviewFromModels();
      const firstId = await batchView(page).getAttribute('data-batch');
      // Readable where it is signed, at both sizes: reasons and warnings wrap, nothing sideways.
      await noSidewaysScroll(page);
      await batchRow(page, BOOK.globalGrowth)
        .getByTestId('batch-target-source')
        .filter({ hasText: /^Target from version [0-9a-f-]{36}$/ })
        .waitFor();
      const summary = batchView(page).getByTestId('batch-summary');
      await summary.getByText('4 strategies to send').waitFor();
      await summary
        .getByText('Sells QQQ whole in 2 strategies: Balanced Growth, Global Growth')
        .waitFor();
      const revision = (await desk.batches.get({ batchId: firstId! })).revisionHash;
      await summary.getByText(`Model “Demo model” revision 1, hash ${revision}`).waitFor();
      await screenshot(page, 'batch-signoff-01-review-1400');
      await page.setViewportSize({ width: 1024, height: 700 });
      await noSidewaysScroll(page);
      await screenshot(page, 'batch-signoff-02-review-1024');
      await page.emulateMedia({ colorScheme: 'dark' });
      await noSidewaysScroll(page);
      await screenshot(page, 'batch-signoff-02-review-1024-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1400, height: 900 });

      // A line's confirmation is read only: nothing in it that looks like it acts.
      await batchRow(page, BOOK.globalGrowth)
        .getByRole('button', { name: 'Confirmation of Global Growth' })
        .click();
      const confirmation = page.getByRole('dialog', { name: 'Confirmation of one strategy' });
      // It names what would be executed: the batch's model revision, not "this draft".
      await confirmation
        .getByRole('heading', {
          name: 'What executing model “Demo model” revision 1 does to Global Growth (read only)',
        })
        .waitFor();
      await confirmation
        .getByTestId('confirm-stale')
        .getByText(/targets now and model “Demo model” revision 1 leaves out/)
        .waitFor();
      expect(await confirmation.textContent()).not.toMatch(/this draft/i);
      await confirmation
        .getByTestId('confirm-read-only-note')
        .filter({ hasText: 'acknowledged on the batch' })
        .waitFor();
      expect(await confirmation.getByRole('button', { name: /Execute/ }).count()).toBe(0);
      expect(await confirmation.getByRole('checkbox').count()).toBe(0);
      await screenshot(page, 'batch-signoff-03-line-read-only');
      await confirmation.getByRole('button', { name: 'Close' }).click();
      await confirmation.waitFor({ state: 'hidden' });

      const sign = batchView(page).getByRole('region', { name: 'Sign-off' });
      for (const name of ['Balanced Growth', 'Global Growth'])
        await sign
          .getByLabel(`I accept that the predicted actions for ${name} are uncertain`)
          .check();
      await sign.getByLabel('Stop at the first failure').check();
      const execute = sign.getByRole('button', { name: 'Execute 4 strategies' });
      expect(await execute.isEnabled()).toBe(true);
      // Execute asks once more, naming what goes out; going back sends nothing.
      await execute.click();
      const final = page.getByRole('dialog', { name: 'Send 4 strategies now?' });
      await final
        .getByTestId('final-strategies')
        .filter({
          hasText: 'Balanced Growth, Balanced Retirement, Global Growth, Halted Income',
        })
        .waitFor();
      await final.getByText('QQQ in Balanced Growth, Global Growth').waitFor();
      await final
        .getByTestId('final-acknowledged')
        .filter({ hasText: /^Balanced Growth, Global Growth$/ })
        .waitFor();
      await screenshot(page, 'batch-signoff-04-final-confirmation');
      await final.getByRole('button', { name: 'Go back' }).click();
      await final.waitFor({ state: 'hidden' });
      expect(executes).toEqual([]);
      expect((await desk.batches.get({ batchId: firstId! })).state).toBe('reviewed');

      // A second review starts from nothing: no acknowledgement, the default options.
      await reviewFromModels();
      const secondId = await batchView(page).getAttribute('data-batch');
      expect(secondId).not.toBe(firstId);
      for (const name of ['Balanced Growth', 'Global Growth'])
        expect(
          await sign
            .getByLabel(`I accept that the predicted actions for ${name} are uncertain`)
            .isChecked(),
        ).toBe(false);
      expect(await sign.getByLabel('Stop at the first failure').isChecked()).toBe(false);
      expect(await execute.isDisabled()).toBe(true);
      // The first review is superseded: executing it is refused, even asked directly.
      await expect(
        desk.batches.execute({
          batchId: firstId!,
          unticked: [],
          acknowledged: [],
          stopAtFirstFailure: false,
        }),
      ).rejects.toMatchObject({
        kind: 'confirmation-outdated',
        message: expect.stringMatching(
          /^This review was superseded by a newer review of one or more of its strategies: sign the newer one/,
        ),
      });

      // One act for the named list.
      await sign.getByLabel('I accept the uncertain predictions for these 2 strategies').check();
      expect(await execute.isEnabled()).toBe(true);
      await execute.click();
      await final
        .getByTestId('final-acknowledged')
        .filter({ hasText: 'Balanced Growth, Global Growth (as one act)' })
        .waitFor();
      expect(executes).toEqual([]);
      await final.getByRole('button', { name: 'Send 4 strategies' }).click();
      await batchView(page)
        .getByTestId('batch-words')
        // Sending, or already all sent ("4 sent: …") when the words that moved were coalesced.
        .filter({ hasText: /^(sending: |4 sent)/ })
        .waitFor();
      expect(executes).toHaveLength(1);
      // The sign-off is gone once sending began: focus is on the batch's heading, not lost.
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('H2');
      const reviewed = desk.store.batches.get(secondId!)!;
      expect(JSON.parse(desk.store.activity.get(reviewed.reviewSeq!)!.payload)).toMatchObject({
        stopAtFirstFailure: false,
        acknowledgedTogether: true,
        acknowledged: [
          { strategyId: BOOK.balancedGrowth, strategyName: 'Balanced Growth' },
          { strategyId: BOOK.globalGrowth, strategyName: 'Global Growth' },
        ],
      });
      await expect
        .poll(async () => (await desk.batches.get({ batchId: secondId! })).endedAt, {
          timeout: 30_000,
        })
        .not.toBeNull();
      // The model's followers, read before the batch, show how it left them: those it brought
      // to the model in sync, the one whose rebalance failed not.
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      const followers = page.getByRole('region', { name: 'Strategies following this model' });
      const syncOf = (id: string) =>
        followers.locator(`tr[data-strategy="${id}"] [data-sync]`).getAttribute('data-sync');
      for (const id of [BOOK.balancedGrowth, BOOK.balancedRetirement, BOOK.globalGrowth])
        await expect.poll(() => syncOf(id)).toBe('in-sync');
      await expect.poll(() => syncOf(HALTED_INCOME.strategyId)).toBe('rebalance-failed');

      // After a reload: the profile's batches from the book, newest first, each opening its view.
      await page.reload();
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Batches', exact: true }).click();
      const list = page.getByRole('table', { name: 'Batches of this profile' });
      await list.locator('tbody tr').nth(1).waitFor();
      expect(
        await list.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.batch)),
      ).toEqual([secondId, firstId]);
      await list
        .locator(`tr[data-batch="${secondId}"]`)
        .getByText(/^4 sent: /)
        .waitFor();
      await list
        .locator(`tr[data-batch="${firstId}"]`)
        .getByText(
          'superseded by a newer review of one or more of its strategies: never executed, nothing sent from it. Sign the newer review',
        )
        .waitFor();
      expect((await desk.batches.get({ batchId: firstId! })).state).toBe('expired');
      await screenshot(page, 'batch-signoff-05-list');
      // Beside the long states, each Open keeps its word on one line.
      for (const open of await list.getByRole('button', { name: /^Open the batch/ }).all()) {
        const [height, line] = await open.evaluate((b) => [
          b.clientHeight,
          parseFloat(getComputedStyle(b).lineHeight),
        ]);
        expect(height, 'Open on one line').toBeLessThan(2 * line);
      }
      await list.locator(`tr[data-batch="${secondId}"]`).getByRole('button').click();
      await batchView(page).getByRole('button', { name: 'Export orders CSV…' }).waitFor();
      await batchView(page).getByRole('button', { name: 'Export summary CSV…' }).waitFor();
      await page.getByRole('button', { name: '← All batches of this profile' }).click();
      await list.waitFor();

      // From Models too.
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: 'Batches of this profile' }).click();
      await list.locator(`tr[data-batch="${firstId}"]`).getByRole('button').click();
      expect(await batchView(page).getAttribute('data-batch')).toBe(firstId);
      // Superseded: it says so, and there is nothing to sign on it.
      await batchView(page)
        .getByTestId('batch-words')
        .getByText(/^superseded by/)
        .waitFor();
      expect(await batchView(page).getByRole('region', { name: 'Sign-off' }).count()).toBe(0);
      // It leads to the review that superseded it.
      await batchView(page).getByRole('button', { name: 'Open the newer review' }).click();
      await expect.poll(() => batchView(page).getAttribute('data-batch')).toBe(secondId);
      await page.getByRole('button', { name: '← All batches of this profile' }).click();
      await list.waitFor();

      // Each batch entry of the activity log links to its batch.
      for (const kind of ['Batch ended', 'Batch reviewed']) {
        await page.getByRole('button', { name: 'Profile activity' }).click();
        const [entry] = (
          await desk.activity.list({
            profileId,
            kinds: [kind === 'Batch ended' ? 'batch-ended' : 'batch-reviewed'],
            offset: 0,
            limit: 1,
          })
        ).entries;
        await page
          .getByRole('table', { name: 'Activity' })
          .locator(`tr[data-seq="${entry!.seq}"]`)
          .getByRole('button', { name: kind })
          .click();
        await page.getByRole('button', { name: 'Open the batch' }).click();
        await batchView(page)
          .getByRole('heading', { name: /Batch of “Demo model”/ })
          .waitFor();
        expect(await batchView(page).getAttribute('data-batch')).toBe(secondId);
      }
      expect(problems).toEqual([]);
      await page.close();
    },
    180_000,
  );

  withChromium(
    'the model and its followers fit the window: every sync state and Unassign in view, at 1400 and 1024',
    async () => {
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Demo model/ }).click();
      const part = page.getByRole('region', { name: 'Strategies following this model' });
      await part
        .locator('tr[data-strategy]')
        .nth(FOLLOWERS.length - 1)
        .waitFor();
      for (const width of [1400, 1024]) {
        await page.setViewportSize({ width, height: width === 1400 ? 900 : 700 });
        // Nothing scrolls sideways: the main area is as wide as the window leaves it.
        const sideways = await page.evaluate(() => {
          const main = document.querySelector('.content.scroll')!;
          return main.scrollWidth - main.clientWidth;
        });
        expect(sideways, `${width}`).toBeLessThanOrEqual(0);
        const rightOf = async (name: string) => {
          const box = await page.getByRole('button', { name, exact: true }).boundingBox();
          return box!.x + box!.width;
        };
        for (const f of DEMO_MODEL.followers) {
          const name = (await part
            .locator(`tr[data-strategy="${f.strategyId}"] td`)
            .nth(1)
            .textContent())!;
          expect(await rightOf(`Unassign ${name}`), `${name} at ${width}`).toBeLessThanOrEqual(
            width,
          );
          // The revision followed on one line (two at 1024), not folded by a sync state's
          // differences.
          const follows = part.locator(`tr[data-strategy="${f.strategyId}"] td`).nth(2);
          expect((await follows.textContent())!.replace(/\s+/g, ' ')).toBe(
            'revision 1 (the latest)',
          );
          const lines = await follows.evaluate((td) => {
            const text = document.createRange();
            text.selectNodeContents(td);
            return new Set([...text.getClientRects()].map((r) => Math.round(r.top))).size;
          });
          expect(lines, `${name}'s revision at ${width}`).toBeLessThanOrEqual(
            width === 1400 ? 1 : 2,
          );
        }
        expect(await rightOf('Export revision 1 as CSV'), `${width}`).toBeLessThanOrEqual(width);
      }
      await screenshot(page, 'batch-signoff-06-models-1024');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
