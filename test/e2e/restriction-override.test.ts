import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox/demo-data';
import { collectPageProblems, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  newDraft,
  openDraftsEnv,
  openDraftsTab,
  rowOf,
  waitSaved,
  type DraftsEnv,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/**
 * Restrictions in the draft editor and the confirmation, in Chromium against the browser host,
 * the real desk, the sandbox and SQLite: each row's class in words (the demo's do-not-buy TSLA,
 * not held, is a certain violation; a held AAPL on do-not-sell a possible one); the confirmation
 * lists them and keeps Execute disabled until each symbol is overridden by name with a note; the
 * execution's activity entry records that override.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (!chromiumPart.available) return;
  env = await openDraftsEnv();
  await env.harness.desk.restrictions.add({
    profileId: env.profileId,
    kind: 'do-not-sell',
    symbol: 'AAPL',
    scope: { type: 'strategy', strategyId: DEMO_STRATEGY_IDS.coreEquity },
    reason: 'Client keeps the position',
    setBy: 'Compliance',
  });
}, 120_000);
afterAll(async () => env?.close());

describe('restrictions in the draft and its confirmation', () => {
  withChromium('classes rows in words and executes only with an override by name', async () => {
    const page = await env!.browser.newPage({ viewport: { width: 1024, height: 700 } });
    const problems = collectPageProblems(page);
    await openDraftsTab(page, env!.host.url, 'Core Equity');
    await newDraft(page, 'With TSLA', 'From the current target');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.keyboard.type('TSLA');
    await page.keyboard.press('Tab');
    await page.keyboard.type('5');
    await page.keyboard.press('Tab');
    await waitSaved(page);

    await expect.poll(() => rowOf(page, 'TSLA').textContent()).toMatch(/restricted: certain/);
    expect(await rowOf(page, 'AAPL').textContent()).toMatch(/restricted: possible/);
    expect(await rowOf(page, 'MSFT').textContent()).not.toMatch(/restricted/);
    await screenshot(page, 'restriction-classes-1024x700');

    await page.getByRole('button', { name: 'Execute…' }).click();
    const dialog = page.getByRole('dialog');
    const restricted = dialog.getByRole('group', { name: /breaks a restriction for certain/ });
    await restricted.waitFor();
    expect(await restricted.textContent()).toMatch(/Certain violation\s*Override TSLA/);
    expect(await restricted.textContent()).toMatch(/Possible violation\s*Override AAPL/);
    const execute = dialog.getByRole('button', { name: 'Execute rebalance' });
    expect(await execute.isDisabled()).toBe(true);
    await restricted.getByRole('checkbox', { name: /Override TSLA/ }).check();
    await restricted.getByLabel('Override note').fill('Committee approved the TSLA buy');
    // AAPL is not named yet: still refused here, and the screen says what is missing.
    expect(await execute.isDisabled()).toBe(true);
    expect(await dialog.getByTestId('confirm-override-missing').textContent()).toMatch(
      /override AAPL/,
    );
    await restricted.getByRole('checkbox', { name: /Override AAPL/ }).check();
    expect(await execute.isDisabled()).toBe(false);
    await screenshot(page, 'restriction-override-1024x700');
    await execute.click();

    const desk = env!.harness.desk;
    const sent = async () =>
      (
        await desk.activity.list({
          profileId: env!.profileId,
          kinds: ['execution-sent'],
          offset: 0,
          limit: 5,
        })
      ).entries;
    await expect.poll(async () => (await sent()).length, { timeout: 20_000 }).toBe(1);
    const detail = await desk.activity.get({ seq: (await sent())[0]!.seq });
    expect(detail.facts).toEqual(
      expect.arrayContaining([
        {
          label: 'Restrictions overridden',
          value: 'AAPL, TSLA: Committee approved the TSLA buy',
        },
      ]),
    );
    expect(problems).toEqual([]);
    await page.close();
  });
});
