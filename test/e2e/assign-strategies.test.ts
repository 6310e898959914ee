import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { MAX_BATCH_STRATEGIES } from '../../shared/batches/states';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { within } from '../support/e2e-layout';
import { manyStrategiesSandbox, profileWithCopies } from '../support/many-strategies';
import { itNeeds } from '../support/system-parts';

/**
 * The Models screen's "Assign strategies" in a large book, in Chromium against the real desk,
 * a sandbox of many strategies over HTTP and SQLite: the list is windowed (a few rows in the
 * page, however many strategies), found by name, and a whole tag is assigned in one act; with more
 * followers out of sync than a batch holds, the review takes the first thousand and says so.
 */
const withChromium = itNeeds(chromiumPart);
// One more than a batch holds, so the followers not in sync are reviewed a thousand at a time.
const COPIES = MAX_BATCH_STRATEGIES + 1;

describe('assigning strategies to a model in a large book', () => {
  let app: BareAppE2E | undefined;
  let sandbox: Awaited<ReturnType<typeof manyStrategiesSandbox>> | undefined;
  let profileId: string;
  beforeAll(async () => {
    if (!chromiumPart.available) return;
    sandbox = await manyStrategiesSandbox(COPIES);
    app = await openBareAppE2E();
    profileId = await profileWithCopies(app.harness.desk, sandbox);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await sandbox?.close();
  });

  withChromium(
    'searchable, windowed and assignable by tag',
    async () => {
      const desk = app!.harness.desk;
      const ids = sandbox!.ids;
      const model = await desk.models.create({
        name: 'Copies model',
        start: { kind: 'strategy', profileId, strategyId: ids[0]! },
      });
      // 250 of the copies carry the tag "growth".
      await desk.book.changeTags({
        profileId,
        selection: { kind: 'ids', strategyIds: ids.slice(100, 350) },
        add: ['growth'],
        remove: [],
      });
      // 20 carry "late", the first ten of them also "growth".
      await desk.book.changeTags({
        profileId,
        selection: { kind: 'ids', strategyIds: ids.slice(340, 360) },
        add: ['late'],
        remove: [],
      });
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      /** Wholly in the window: seen without scrolling. */
      const inWindow = async (target: Locator) => {
        const box = await target.boundingBox();
        return box !== null && within(box, page.viewportSize()!);
      };
      const problems = collectPageProblems(page);
      await page.goto(app!.host.url);
      // The book's Refresh counts in the app's one format too.
      await page.getByRole('button', { name: 'Refresh all 1,001', exact: true }).waitFor();
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Copies model/ }).click();
      const form = page.getByRole('form', { name: 'Assign strategies' });
      const table = form.getByRole('table', { name: 'Strategies to assign' });
      const rows = (p: Page) =>
        p
          .getByRole('form', { name: 'Assign strategies' })
          .locator('tr[data-choice]')
          .evaluateAll((trs) => trs.map((tr) => tr.textContent!.trim()));

      // Windowed: every strategy counted, a few in the page.
      await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(COPIES + 1));
      const inPage = (await rows(page)).length;
      expect(inPage).toBeGreaterThan(0);
      expect(inPage).toBeLessThan(60);

      // Found by name.
      await form.getByLabel('Find strategies to assign').fill('Copy 0421');
      await expect.poll(() => rows(page)).toEqual(['Copy 0421']);
      await form.getByLabel('Find strategies to assign').fill('');
      await screenshot(page, 'assign-strategies-01-large-book');
      // All found chosen: the button counts them in the app's one format, thousands grouped.
      await form.getByRole('button', { name: 'Choose the 1,001 strategies found' }).click();
      await form.getByRole('button', { name: 'Assign 1,001', exact: true }).waitFor();
      await form.getByRole('button', { name: 'Clear the choice' }).click();
      await form.getByRole('button', { name: 'Assign', exact: true }).waitFor();

      // A whole tag in one act.
      const tagSelect = form.getByLabel('Tag to assign');
      const tagOptions = () => tagSelect.locator('option').allTextContents();
      expect(await tagOptions()).toEqual([
        'a tag…',
        'growth (250 to assign)',
        'late (20 to assign)',
      ]);
      await tagSelect.selectOption({ label: 'growth (250 to assign)' });
      await form.getByRole('button', { name: 'Choose the tagged' }).click();
      await form
        .getByRole('status')
        .filter({ hasText: '250 strategies tagged “growth” chosen.' })
        .waitFor();
      // What was chosen and the button that assigns it are in the window, not below it.
      await expect.poll(() => inWindow(form.getByRole('status'))).toBe(true);
      expect(await inWindow(form.getByRole('button', { name: 'Assign 250' }))).toBe(true);
      await form.getByRole('button', { name: 'Assign 250' }).click();
      await expect
        .poll(async () => (await desk.models.followers({ modelId: model.id, profileId })).length, {
          timeout: 30_000,
        })
        .toBe(250);
      const following = new Set(
        (await desk.models.followers({ modelId: model.id, profileId })).map((f) => f.strategyId),
      );
      expect(following).toEqual(new Set(ids.slice(100, 350)));
      // They leave the list of strategies to assign, and the tags count what is left: "growth" has
      // nothing left (not offered), "late" ten of its twenty.
      await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(COPIES - 250 + 1));
      await expect.poll(tagOptions).toEqual(['a tag…', 'late (10 of 20 to assign)']);
      await tagSelect.selectOption({ label: 'late (10 of 20 to assign)' });
      await form.getByRole('button', { name: 'Choose the tagged' }).click();
      await form
        .getByRole('status')
        .filter({ hasText: '10 strategies tagged “late” chosen (10 follow this model already).' })
        .waitFor();
      await form.getByRole('button', { name: 'Assign 10' }).click();
      await expect.poll(() => table.getAttribute('aria-rowcount')).toBe(String(COPIES - 260 + 1));
      // Every tagged strategy follows: no tag is offered.
      await expect.poll(() => tagSelect.count()).toBe(0);

      // Every copy follows, and a new revision leaves them all out of sync: more than a batch holds.
      await desk.models.assign({ profileId, modelId: model.id, strategyIds: [...ids] });
      const detail = await desk.models.get({ modelId: model.id });
      await desk.models.saveRevision({
        modelId: model.id,
        rows: detail.rows.slice(0, -1),
        basedOn: detail.revisions[0]!.id,
      });
      await page.reload();
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Copies model/ }).click();
      const review = page.getByRole('button', {
        name: 'Review the first 1,000 not in sync (of 1,001)…',
      });
      await review.waitFor({ timeout: 30_000 });
      // With every copy following, the review is within a window's height of the followers'
      // heading (the list scrolls in its own box), not past a thousand rows.
      const followersTop = (await page
        .getByRole('region', { name: 'Strategies following this model' })
        .boundingBox())!.y;
      expect((await review.boundingBox())!.y - followersTop).toBeLessThan(900);
      await page
        .getByTestId('batch-limit')
        .filter({ hasText: 'A batch holds at most 1,000 strategies' })
        .waitFor();
      // The note beside them does not fold the buttons' words.
      for (const button of [review, page.getByRole('button', { name: /^Review chosen/ })]) {
        const height = await button.evaluate((b) => b.clientHeight);
        const line = await button.evaluate((b) => parseFloat(getComputedStyle(b).lineHeight));
        expect(height, (await button.textContent()) ?? '').toBeLessThan(2 * line);
      }
      await review.click();
      await page
        .getByTestId('batch-to-send')
        .filter({ hasText: /^1,000 strategies to send$/ })
        .waitFor({ timeout: 60_000 });
      // Counts in the app's one format: thousands grouped.
      await page
        .getByTestId('batch-words')
        .filter({ hasText: /^reviewed: 1,000 to send, 0 excluded$/ })
        .waitFor();
      // The summary's thousand names scroll in their box: Execute is within a window's height
      // of the summary's top.
      const summaryTop = (await page.getByTestId('batch-summary').boundingBox())!.y;
      const executeButton = page
        .getByRole('region', { name: 'Sign-off' })
        .getByRole('button', { name: 'Execute 1,000 strategies' });
      expect((await executeButton.boundingBox())!.y - summaryTop).toBeLessThan(900);
      // The thousand lines scroll in their own box: the sign-off is within two windows' height of
      // the batch's heading, not a thousand lines below it.
      const batchTop = (await page
        .getByRole('region', { name: 'Batch' })
        .getByRole('heading', { name: /^Batch of “Copies model”/ })
        .boundingBox())!.y;
      expect((await executeButton.boundingBox())!.y - batchTop).toBeLessThan(2 * 900);
      // Asked once more, the thousand names scroll in their box: the question, the model and
      // Send are all in the window.
      await executeButton.click();
      const final = page.getByRole('dialog', { name: 'Send 1,000 strategies now?' });
      expect(await inWindow(final.getByRole('heading'))).toBe(true);
      expect(await inWindow(final.getByText(/^Model “Copies model” revision 2/))).toBe(true);
      expect(await inWindow(final.getByRole('button', { name: 'Send 1,000 strategies' }))).toBe(
        true,
      );
      await final.getByRole('button', { name: 'Go back' }).click();
      expect(problems).toEqual([]);
      await page.close();
    },
    240_000,
  );
});
