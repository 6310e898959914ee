import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { layoutOf } from '../support/e2e-layout';
import { itNeeds } from '../support/system-parts';
import { ATTENTION_KINDS } from '../../shared/attention/kinds';

/**
 * The Attention screen with the demo book (one of each signal), in Chromium against the browser
 * host, the real desk, the sandbox and SQLite: at 1400×900 and 1024×700 nothing cut or sideways,
 * the signals first things first; from a signal the manager sets it aside with a reason, starts
 * a draft, and reviews the strategy with its model.
 */
const withChromium = itNeeds(chromiumPart);
let e2e: AppE2E | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  e2e = await openAppE2E({ stepMs: 10, demoAttention: true });
  // The demo's restricted order is found once Fresh Start's rebalance has ended.
  const { desk } = e2e.harness;
  const restricted = () =>
    desk.attention.queue({ profileId: e2e!.profileId, kind: 'restricted-order' });
  for (let waited = 0; (await restricted()).signals.length === 0; waited += 50) {
    if (waited > 30_000) throw new Error('the demo found no restricted order in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 120_000);
afterAll(async () => e2e?.close());

async function openAttention(page: Page): Promise<void> {
  await page.goto(e2e!.host.url);
  await page.getByRole('button', { name: 'Attention', exact: true }).click();
  await page.getByRole('heading', { name: 'Attention', level: 1 }).waitFor();
  await signals(page).first().waitFor();
}

const signals = (page: Page) =>
  page.getByRole('list', { name: 'Signals, first things first' }).getByRole('listitem');

/** The signal of a strategy and a kind, as the screen shows it. */
const signal = (page: Page, strategy: string, kind: string) =>
  signals(page)
    .filter({ hasText: strategy })
    .and(page.locator(`[data-kind="${kind}"]`));

describe('the Attention screen', () => {
  for (const size of [
    { width: 1400, height: 900 },
    { width: 1024, height: 700 },
  ])
    withChromium(
      `shows the demo book's signals in order at ${size.width}×${size.height}`,
      async () => {
        const page = await e2e!.browser.newPage({ viewport: size });
        const problems = collectPageProblems(page);
        await openAttention(page);
        const kinds = await signals(page).evaluateAll((items) =>
          items.map((li) => li.getAttribute('data-kind')!),
        );
        const ranks = kinds.map((k) =>
          ATTENTION_KINDS.indexOf(k as (typeof ATTENTION_KINDS)[number]),
        );
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        // One of each, in the queue's order.
        expect([...new Set(kinds)]).toEqual([...ATTENTION_KINDS]);
        await signal(page, 'Fresh Start', 'restricted-order')
          .getByText(/TSLA: bought [\d.]+ .*against do not buy \(overridden when executed\)/)
          .waitFor();
        await signal(page, 'Income Plus', 'outcome-unknown').waitFor();
        await expect
          .poll(() => signal(page, 'Dividend Growth', 'quantity-changed').textContent())
          .toMatch(/KO: [\d.]+ when the last rebalance ended, [\d.]+ now \(\+[\d.]+; ×2\)/);
        const layout = layoutOf(page);
        expect(await layout.sideways()).toBe(false);
        expect(await layout.cutText()).toEqual([]);
        await screenshot(page, `attention-${size.width}x${size.height}`);
        expect(problems).toEqual([]);
        await page.close();
      },
    );

  withChromium(
    'sets a signal aside with a reason, starts a draft, reviews with the model',
    async () => {
      const page = await e2e!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await openAttention(page);

      // Set aside: gone from the queue, counted, and in the activity log with its reason.
      const split = signal(page, 'Dividend Growth', 'quantity-changed');
      await split.getByRole('button', { name: 'Set aside…' }).click();
      const form = page.getByRole('form', { name: 'Set aside: Dividend Growth' });
      await form.getByLabel('Reason').fill('KO split 2-for-1, nothing to do');
      await form.getByRole('button', { name: 'Acknowledge' }).click();
      await expect.poll(() => split.count()).toBe(0);
      await expect
        .poll(() => page.getByTestId('attention-count').textContent())
        .toMatch(/1 set aside/);
      const log = await e2e!.harness.desk.activity.list({
        profileId: e2e!.profileId,
        kinds: ['attention-set-aside'],
        offset: 0,
        limit: 5,
      });
      expect(log.entries.map((e) => e.summary)).toEqual([
        'Quantity changed of “Dividend Growth” acknowledged: KO split 2-for-1, nothing to do',
      ]);

      // Start a draft: the strategy opens on its Drafts tab with the new draft.
      await signal(page, 'Core Equity', 'newly-held')
        .getByRole('button', { name: 'Start a draft' })
        .click();
      await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Newly held TLT', level: 2 }).waitFor();
      await screenshot(page, 'attention-draft-started');

      // Review with its model: the batch review of that one strategy.
      await page.getByRole('button', { name: 'Attention', exact: true }).click();
      await signal(page, 'Balanced Retirement', 'model-out-of-sync')
        .getByRole('button', { name: 'Review with Demo model…' })
        .click();
      const batch = page.getByRole('region', { name: 'Batch' });
      await batch.getByRole('heading', { name: /^Batch of “Demo model” revision 1/ }).waitFor();
      await batch.getByText('Balanced Retirement').first().waitFor();
      await screenshot(page, 'attention-review');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
