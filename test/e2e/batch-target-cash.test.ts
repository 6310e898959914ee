import Decimal from 'decimal.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_MODEL } from '../../electron/sandbox';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { call, tokenFor, versionPath } from '../support/sandbox-http';
import { itNeeds } from '../support/system-parts';

/**
 * "Apply the model with target cash X %" in a batch review, in Chromium against the browser
 * host, the real desk, the sandbox over HTTP and SQLite, with the demo model's seven followers:
 * a cash the rules refuse is said in words and nothing is reviewed; a good one is named on every
 * line (the model's cash before and after, each weight it moved) and in the summary above
 * Execute, and the versions executed carry that cash at the service.
 */
const withChromium = itNeeds(chromiumPart);

const FOLLOWERS = DEMO_MODEL.followers.map((f) => f.strategyId);
const batchView = (page: Page) => page.getByRole('region', { name: 'Batch', exact: true });

describe('a batch review with another target cash', () => {
  let app: AppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openAppE2E({ stepMs: 5, demoModel: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium(
    'refused in words before anything is sent; each line says what moved; the versions carry it',
    async () => {
      const { harness } = app!;
      const desk = harness.desk;
      const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      const reviews: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/batches.review')) reviews.push(r.postData() ?? '');
      });
      await page.goto(app!.host.url);
      await page.getByRole('button', { name: 'Models', exact: true }).click();
      await page.getByRole('button', { name: /^Demo model/ }).click();
      const part = page.getByRole('region', { name: 'Strategies following this model' });
      for (const id of FOLLOWERS)
        await part.locator(`tr[data-strategy="${id}"]`).getByRole('checkbox').check();
      const reviewPart = part.getByRole('group', { name: 'Review a batch' });
      const cash = reviewPart.getByLabel('Target cash');
      const reviewChosen = reviewPart.getByRole('button', { name: 'Review chosen (7)…' });

      // Refused in words, nothing asked of the desk: under the rules' 2 %, over 100, not a number.
      for (const [given, words] of [
        [
          '1',
          'Target cash must be from 2 to 100 % (the rules keep at least 2 % cash); 1 % is not.',
        ],
        [
          '101',
          'Target cash must be from 2 to 100 % (the rules keep at least 2 % cash); 101 % is not.',
        ],
        ['five', 'The target cash "five" '],
      ] as const) {
        await cash.fill(given);
        await reviewChosen.click();
        await reviewPart.getByTestId('target-cash-refused').filter({ hasText: words }).waitFor();
      }
      expect(reviews).toEqual([]);
      await page.setViewportSize({ width: 1024, height: 700 });
      await reviewPart.scrollIntoViewIfNeeded();
      await screenshot(page, 'batch-target-cash-00-refused-1024');
      await page.setViewportSize({ width: 1400, height: 900 });

      // 5 %: the model's 90 % of weights scaled to 95 %.
      await cash.fill('5');
      await reviewChosen.click();
      await batchView(page)
        .getByTestId('batch-words')
        // Bond Ladder, in sync with the model's own cash, is not with 5 %: one more to send.
        .filter({ hasText: 'reviewed: 5 to send, 2 excluded' })
        .waitFor();
      expect(reviews).toHaveLength(1);
      expect(reviews[0]).toContain('"targetCash":"5"');
      const batchId = (await batchView(page).getAttribute('data-batch'))!;
      const batch = await desk.batches.get({ batchId });
      const ready = batch.items.filter((i) => i.state === 'ready');
      expect(ready.map((i) => i.strategyName)).toContain('Bond Ladder');
      expect(ready).toHaveLength(5);
      for (const item of ready) {
        const words = await batchView(page)
          .locator(`tr[data-strategy="${item.strategyId}"]`)
          .getByTestId('batch-target-cash')
          .textContent();
        expect(words).toMatch(
          /^Model applied with target cash 5 % \(the model's own: 10 %\): AGG 40 → 4\d\.\d+, BND 30 → 3\d\.\d+, TLT 20 → 2\d\.\d+$/,
        );
        // The moved weights, as the line names them, leave exactly 5 % cash.
        const moved = [...words!.matchAll(/→ ([\d.]+)/g)].map((m) => m[1]!);
        expect(moved.reduce((t, w) => t.plus(w), new Decimal(0)).toString()).toBe('95');
      }
      const summary = batchView(page).getByTestId('batch-summary');
      await summary
        .getByTestId('batch-summary-cash')
        .filter({ hasText: "Applied with target cash 5 % (the model's own: 10 %)" })
        .waitFor();
      await screenshot(page, 'batch-target-cash-01-review');

      const sign = batchView(page).getByRole('region', { name: 'Sign-off' });
      await sign.getByLabel('I accept the uncertain predictions for these 2 strategies').check();
      await sign.getByRole('button', { name: 'Execute 5 strategies' }).click();
      const final = page.getByRole('dialog', { name: 'Send 5 strategies now?' });
      await final
        .getByTestId('final-target-cash')
        .filter({ hasText: "5 % (the model's own: 10 %)" })
        .waitFor();
      await final.getByRole('button', { name: 'Send 5 strategies' }).click();
      await expect
        .poll(async () => (await desk.batches.get({ batchId })).endedAt, { timeout: 30_000 })
        .not.toBeNull();

      // At the service: each version executed from the review targets the model's symbols with
      // weights leaving 5 % cash.
      const sent = (await desk.batches.get({ batchId })).items.filter((i) => i.versionId);
      expect(sent.map((i) => i.strategyId).sort()).toEqual(ready.map((i) => i.strategyId).sort());
      const baseUrl = harness.sandbox()!.baseUrl;
      const token = await tokenFor(baseUrl, 'manager');
      for (const item of sent) {
        const answer = await call(
          baseUrl,
          'GET',
          versionPath(item.strategyId, item.versionId!, 'positions'),
          { token },
        );
        expect(answer.status).toBe(200);
        const version = answer.json.data as {
          cash_weight: string;
          positions: { symbol: string; weight: string }[];
        };
        expect(new Decimal(version.cash_weight).eq(5), item.strategyName).toBe(true);
        const weighted = version.positions.filter((p) => !new Decimal(p.weight).isZero());
        expect(weighted.map((p) => p.symbol).sort()).toEqual(['AGG', 'BND', 'TLT']);
        expect(
          weighted.reduce((t, p) => t.plus(p.weight), new Decimal(0)).eq(95),
          item.strategyName,
        ).toBe(true);
      }
      expect(problems).toEqual([]);
    },
    180_000,
  );
});
