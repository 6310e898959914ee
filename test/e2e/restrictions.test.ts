import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openAppE2E, type AppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { layoutOf } from '../support/e2e-layout';
import { itNeeds } from '../support/system-parts';

/**
 * The Restrictions screen in Chromium against the browser host, the real desk, the sandbox and
 * SQLite: the demo's rule readable at 1400×900 and 1024×700; a rule added from the keyboard
 * (each missing field named first), one ended, the list out as CSV through the app's one export
 * and a file read back in (a bad one refused, naming its line and column).
 */
const withChromium = itNeeds(chromiumPart);
let e2e: AppE2E | undefined;

beforeAll(async () => {
  if (chromiumPart.available) e2e = await openAppE2E();
}, 120_000);
afterAll(async () => e2e?.close());

async function openRestrictions(page: Page): Promise<void> {
  await page.goto(e2e!.host.url);
  await page.getByRole('button', { name: 'Restrictions', exact: true }).click();
  await page.getByRole('heading', { name: 'Restrictions', level: 1 }).waitFor();
}

const table = (page: Page) => page.getByRole('table', { name: 'Restrictions' });
const row = (page: Page, text: string) => table(page).getByRole('row').filter({ hasText: text });

describe('the Restrictions screen', () => {
  for (const size of [
    { width: 1400, height: 900 },
    { width: 1024, height: 700 },
  ])
    withChromium(`lists the profile's rules readably at ${size.width}×${size.height}`, async () => {
      const page = await e2e!.browser.newPage({ viewport: size });
      const problems = collectPageProblems(page);
      await openRestrictions(page);
      const tsla = row(page, 'TSLA');
      await tsla.waitFor();
      expect(await tsla.textContent()).toMatch(/Do not buy\s*TSLA\s*Whole profile/);
      const layout = layoutOf(page);
      expect(await layout.sideways()).toBe(false);
      expect(await layout.cutText()).toEqual([]);
      // Every column in view: the table does not scroll sideways in its box.
      const box = await table(page).evaluate((t) => [
        t.parentElement!.scrollWidth,
        t.parentElement!.clientWidth,
      ]);
      expect(box[0]).toBe(box[1]);
      await screenshot(page, `restrictions-${size.width}x${size.height}`);
      expect(problems).toEqual([]);
      await page.close();
    });

  withChromium('adds a rule from the keyboard, ends one, exports and imports CSV', async () => {
    const page = await e2e!.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems = collectPageProblems(page);
    await openRestrictions(page);
    const form = page.getByRole('form', { name: 'Add a restriction' });
    await form.getByRole('button', { name: 'Add restriction' }).click();
    // Nothing sent: each missing field named, the first one focused.
    await form.getByText('Symbol: enter the symbol.').waitFor();
    await form.getByText('Reason: say why the symbol is restricted.').waitFor();
    await form.getByText('Set by: say who sets it.').waitFor();
    expect(await form.getByLabel('Symbol').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );

    // Typed and chosen from the keyboard alone, sent with Enter.
    await page.keyboard.type('xom');
    await form.getByLabel('Rule').focus();
    await form.getByLabel('Rule').selectOption('do-not-sell');
    await form.getByLabel('Applies to').selectOption('strategy');
    await form.getByRole('button', { name: 'Add restriction' }).click();
    await form.getByText('Strategy: choose the strategy it applies to.').waitFor();
    await form.getByLabel('Strategy', { exact: true }).selectOption({ label: 'Core Equity' });
    await form.getByLabel('Reason').fill('Client keeps the energy sleeve');
    await form.getByLabel('Set by').fill('Dana');
    await page.keyboard.press('Enter');
    const xom = row(page, 'XOM');
    await xom.waitFor();
    expect(await xom.textContent()).toMatch(
      /Do not sell\s*XOM\s*Strategy Core Equity\s*Client keeps the energy sleeve\s*Dana/,
    );
    const stored = await e2e!.harness.desk.restrictions.list({ profileId: e2e!.profileId });
    expect(stored.find((r) => r.symbol === 'XOM')).toMatchObject({
      kind: 'do-not-sell',
      scope: { type: 'strategy' },
      setBy: 'Dana',
      state: 'in-force',
    });

    // Ended: still listed, no longer in force.
    await row(page, 'TSLA').getByRole('button', { name: 'End do not buy TSLA' }).click();
    await expect.poll(() => row(page, 'TSLA').textContent()).toMatch(/Over/);

    // Out as CSV through the app's export, then a file of its own read back in.
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const path = page.getByTestId('restrictions-export-path');
    await path.waitFor();
    const csv = readFileSync((await path.textContent())!.trim(), 'utf8');
    expect(csv.split('\n')[0]).toMatch(
      /^kind,symbol,scope,strategy_or_tag,reason,set_by,from,until/,
    );
    expect(csv).toMatch(/do-not-sell,XOM,strategy,/);

    const header = 'kind,symbol,scope,strategy_or_tag,reason,set_by,from,until\n';
    await page.getByLabel('Import as').fill('Importer');
    await page.getByLabel('Import CSV…').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        `${header}hold,NVDA,profile,,Earnings week,,,\nsell-now,AMD,profile,,x,,,\n`,
      ),
    });
    await page.getByText(/Line 3.*kind/i).waitFor();
    expect(await row(page, 'NVDA').count()).toBe(0);
    await page.getByLabel('Import CSV…').setInputFiles({
      name: 'good.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${header}hold,NVDA,profile,,Earnings week,,,\n`),
    });
    await page.getByText('Imported 1 restriction.').waitFor();
    expect(await row(page, 'NVDA').textContent()).toMatch(/Hold \(do not trade\)\s*NVDA.*Importer/);
    // The one 400: the desk's refusal of the bad file, shown above.
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    expect(problems.length).toBe(1);
    await page.close();
  });
});
