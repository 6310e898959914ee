import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_MODEL, HALTED_INCOME } from '../../electron/sandbox';
import { acknowledgementsOf } from '../support/batches';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * What a batch tells once sent, in Chromium against the browser host, the real desk, the sandbox
 * over HTTP and SQLite, at 1024×700 in dark: while it runs, counts in the statuses the lines'
 * badges show; at its end, how the versions ended in the view, the notification and the Activity
 * entry (its state with it, the Outcome once, the Outcome column in view, values grouped); a
 * failed follower's badge and a disabled primary button reading as such.
 */
const withChromium = itNeeds(chromiumPart);

const FOLLOWERS = DEMO_MODEL.followers.map((f) => f.strategyId);
const batchView = (page: Page) => page.getByRole('region', { name: 'Batch', exact: true });

/** A colour as the page resolves it from one of the app's variables. */
const colourOf = (page: Page, variable: string) =>
  page.evaluate((v) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${v})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
const style = (locator: Locator, property: 'color' | 'backgroundColor') =>
  locator.evaluate((e, p) => getComputedStyle(e)[p], property);

describe('what a batch tells', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 5, demoModel: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'counts in the badges’ statuses, how the versions ended everywhere, Activity whole at 1024 in dark',
    async () => {
      const { harness, profileId } = app!;
      const desk = harness.desk;
      const page = await app!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      await page.emulateMedia({ colorScheme: 'dark' });
      const problems = collectPageProblems(page);
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
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();

      // Reviewed and executed as another window would; each version PENDING for a while.
      const [model] = await desk.models.list({});
      const { latest } = await desk.models.get({ modelId: model!.id });
      const batch = await desk.batches.review({
        profileId,
        revisionId: latest!.id,
        strategyIds: FOLLOWERS,
      });
      await page.getByRole('button', { name: 'Batches', exact: true }).click();
      await page
        .getByRole('table', { name: 'Batches of this profile' })
        .locator(`tr[data-batch="${batch.id}"]`)
        .getByRole('button')
        .click();
      await batchView(page).getByTestId('batch-words').waitFor();
      await app!.setStepMs(2_000);
      await desk.batches.execute({
        batchId: batch.id,
        unticked: [],
        acknowledged: acknowledgementsOf(batch),
        stopAtFirstFailure: false,
      });
      // The count says what it counts: the status the lines' badges show, not "running".
      const outcomes = batchView(page).getByTestId('batch-outcomes');
      await outcomes.locator('[data-outcome="PENDING"]').waitFor();
      expect(await outcomes.textContent()).toMatch(/^\s*The sent strategies so far:/);
      expect(await outcomes.textContent()).not.toMatch(/running/);
      await batchView(page)
        .locator('tr[data-strategy]')
        .getByText('PENDING', { exact: true })
        .first()
        .waitFor();
      // The first line can show PENDING while the last two are still being sent (two at once):
      // the counts say so, then all four sent.
      await batchView(page)
        .getByTestId('batch-counts')
        .filter({ hasText: /^\s*Strategies:\s+3 excluded\s+4 sent\s*$/ })
        .waitFor();
      // The status bar's count says what it counts too, and keeps up with the batch's: the
      // journal's events carry it (a read after them came up to half a second later).
      const { runningVersions } = await desk.app.status({});
      expect(runningVersions).toBeGreaterThanOrEqual(4);
      expect(await page.locator('[data-status-item="running"]').textContent()).toMatch(
        new RegExp(`^\\s*${runningVersions}\\s+versions running, all profiles`),
      );
      await screenshot(page, 'batch-told-01-pending-1024-dark');
      await app!.setStepMs(5);

      // The end, as the view, the notification and the activity entry tell it.
      const ended = '4 sent: 1 FAILED, 3 COMPLETE';
      await batchView(page).getByTestId('batch-words').filter({ hasText: ended }).waitFor({
        timeout: 30_000,
      });
      await outcomes.getByText('How the sent strategies ended:').waitFor();
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { told: string[] }).told))
        .toEqual([`Batch of “Demo model” ended: ${ended}`]);

      // Dark: the failed follower's badge reads as a failure; a disabled Save as disabled.
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Demo model/ }).click();
      const followers = page.getByRole('region', { name: 'Strategies following this model' });
      const failedBadge = followers
        .locator(`tr[data-strategy="${HALTED_INCOME.strategyId}"]`)
        .getByText('REBALANCE FAILED', { exact: true });
      await failedBadge.waitFor();
      expect(await style(failedBadge, 'color')).toBe(await colourOf(page, '--danger'));
      const save = page.getByRole('button', { name: 'Save as a new revision' });
      expect(await save.isDisabled()).toBe(true);
      expect(await style(save, 'backgroundColor')).not.toBe(await colourOf(page, '--accent'));
      expect(await style(save, 'color')).toBe(await colourOf(page, '--fg-muted'));
      await screenshot(page, 'batch-told-02-models-1024-dark');

      // The Activity at 1024: every column in view, the Outcome too; figures grouped.
      await page.getByRole('button', { name: 'Profile activity' }).click();
      const table = page.getByRole('table', { name: 'Activity' });
      const [end] = (
        await desk.activity.list({ profileId, kinds: ['batch-ended'], offset: 0, limit: 1 })
      ).entries;
      const endRow = table.locator(`tr[data-seq="${end!.seq}"]`);
      await endRow.waitFor();
      await screenshot(page, 'batch-told-03-activity-1024-dark');
      const sideways = await table.evaluate((t) => {
        const scroller = t.parentElement!;
        const outcome = t.querySelector('thead th:last-child')!.getBoundingClientRect();
        return {
          overflow: scroller.scrollWidth - scroller.clientWidth,
          outcomePast: outcome.right - scroller.getBoundingClientRect().right,
        };
      });
      expect(sideways.overflow, 'the Activity table scrolls sideways').toBeLessThanOrEqual(0);
      expect(sideways.outcomePast, 'the Outcome column past the edge').toBeLessThanOrEqual(0);
      // The batch's outcome whole in its cell, not cut.
      const cell = endRow.locator('td.outcome');
      expect(await cell.textContent()).toBe('1 FAILED, 3 COMPLETE');
      expect(await cell.evaluate((c) => c.scrollWidth <= c.clientWidth)).toBe(true);
      // The batch's summaries read whole, not cut with the rest on hover: at 1024
      // the time and the kind give the summary the width, the row holds its lines.
      const batchSummariesWhole = async (
        kinds: ('batch-ended' | 'batch-reviewed')[] = ['batch-ended', 'batch-reviewed'],
      ) => {
        for (const kind of kinds) {
          const [entry] = (
            await desk.activity.list({ profileId, kinds: [kind], offset: 0, limit: 1 })
          ).entries;
          const summary = table.locator(`tr[data-seq="${entry!.seq}"] td.summary`);
          expect(await summary.getAttribute('title')).toBe(entry!.summary);
          const whole = await summary.evaluate((td) => {
            const lines = td.querySelector('.lines')!;
            const box = td.getBoundingClientRect();
            const text = document.createRange();
            text.selectNodeContents(lines);
            return {
              clamped: lines.scrollHeight > lines.clientHeight + 1,
              cut: td.scrollWidth > td.clientWidth + 1,
              inRow: [...text.getClientRects()].every((r) => r.bottom <= box.bottom + 0.5),
            };
          });
          expect(whole, `${entry!.summary} at ${page.viewportSize()!.width}`).toEqual({
            clamped: false,
            cut: false,
            inRow: true,
          });
        }
      };
      await batchSummariesWhole();
      // And the end in a wide window, in two lines of the row that keeps one line's height for
      // everything else (the review's longer sentence may end in an ellipsis there).
      await page.setViewportSize({ width: 1400, height: 900 });
      await batchSummariesWhole(['batch-ended']);
      await screenshot(page, 'batch-told-03-activity-1400-dark');
      await page.setViewportSize({ width: 1024, height: 700 });
      // A rebalance's figures whole, not cut: two lines where the window is narrow.
      const endedRows = table.locator('tr[data-seq]').filter({ hasText: 'Rebalance ended' });
      expect(await endedRows.count()).toBe(4);
      for (const lines of await endedRows.locator('td.outcome .lines').all()) {
        const figuresInView = await lines.evaluate((l) => {
          const upTo = l.textContent!.indexOf('filled value') + 'filled value'.length;
          const figures = document.createRange();
          figures.setStart(l.firstChild!, 0);
          figures.setEnd(l.firstChild!, upTo);
          const box = l.getBoundingClientRect();
          return [...figures.getClientRects()].every(
            (r) => r.bottom <= box.bottom + 0.5 && r.right <= box.right + 0.5,
          );
        });
        expect(figuresInView, (await lines.textContent()) ?? '').toBe(true);
      }
      const filled = (
        await desk.activity.list({ profileId, kinds: ['version-ended'], offset: 0, limit: 10 })
      ).entries.map((e) => e.outcome ?? '');
      expect(filled.some((o) => /\d,\d{3}(\.\d+)? filled value/.test(o))).toBe(true);
      expect(filled.filter((o) => /\d{4}(\.\d+)? filled value/.test(o))).toEqual([]);

      // Its detail: the state with how the versions ended, the Outcome once.
      await endRow.getByRole('button', { name: 'Batch ended' }).click();
      await page.getByRole('button', { name: 'Open the batch' }).waitFor();
      const labels = await page.locator('dl.facts dt').allTextContents();
      expect(labels.filter((l) => l === 'Outcome')).toHaveLength(1);
      const stateAt = labels.indexOf('Batch state');
      expect(await page.locator('dl.facts dd').nth(stateAt).textContent()).toBe(ended);
      expect(labels).toContain('Strategies sent');
      await screenshot(page, 'batch-told-04-activity-entry-1024-dark');
      expect(problems).toEqual([]);
      await page.close();
    },
    90_000,
  );
});
