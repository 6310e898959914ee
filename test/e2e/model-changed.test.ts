import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { collectPageProblems } from '../support/e2e-browser';
import { chromiumPart, openDraftsEnv, type DraftsEnv } from '../support/e2e-drafts-env';
import { openStrategyTab } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/**
 * A revision saved on the Models screen reaches every screen that shows what it changed, by the
 * desk's `model-changed` event and without reading again: the Models screen (its list and the
 * followers), the book's model column in another window, and an open Overview's "Follows" in a
 * third. Chromium against the browser host, the real desk, the sandbox and SQLite.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

/** The models and book channels the page asks from now on (`models.list`, `book.rows`, ...). */
function deskCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'POST' || !path.startsWith('/api/')) return;
    const channel = path.slice('/api/'.length);
    if (channel.startsWith('models.') || channel.startsWith('book.')) calls.push(channel);
  });
  return calls;
}

describe('a saved model revision on every screen', () => {
  withChromium(
    'the book, an open Overview and the Models screen show it without reading again',
    async () => {
      const { host, harness, profileId, browser } = env!;
      const desk = harness.desk;
      const core = DEMO_STRATEGY_IDS.coreEquity;
      const model = await desk.models.create({
        name: 'Core model',
        start: { kind: 'strategy', profileId, strategyId: core },
      });
      await desk.models.assign({ profileId, modelId: model.id, strategyIds: [core] });
      const first = model.rows[0]!;

      // The book in one window, Core Equity's Overview in another, Models in a third.
      const book = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const overview = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const models = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = [book, overview, models].map(collectPageProblems);
      await book.goto(host.url);
      const coreModel = book
        .getByRole('table', { name: 'Book' })
        .locator(`tr[data-strategy="${core}"] td.model`);
      await expect.poll(() => coreModel.getAttribute('data-sync')).toBe('in-sync');
      await overview.goto(host.url);
      await openStrategyTab(overview, 'Core Equity', 'Overview');
      const follows = overview.getByTestId('follows-model');
      await follows.getByText('Follows “Core model” (revision 1) · in sync').waitFor();
      await models.goto(host.url);
      await models.getByRole('button', { name: 'Models', exact: true }).click();
      const list = models.getByRole('navigation', { name: 'Models' });
      await list.getByRole('button', { name: /^Core model/ }).click();
      const followers = models.getByRole('region', { name: 'Strategies following this model' });
      const coreFollower = followers.locator(`tr[data-strategy="${core}"]`);
      await coreFollower.getByText('revision 1 (the latest)').waitFor();
      await expect
        .poll(() => coreFollower.locator('.sync').getAttribute('data-sync'))
        .toBe('in-sync');

      const calls = {
        book: deskCalls(book),
        overview: deskCalls(overview),
        models: deskCalls(models),
      };
      const weight = models.getByLabel(`Weight % of ${first.symbol}`, { exact: true });
      await weight.click();
      await models.keyboard.press('ControlOrMeta+A');
      await models.keyboard.type('1');
      await models.getByRole('button', { name: 'Save as a new revision' }).click();
      await models.getByText('As revision 2: nothing to save').waitFor();

      // Each screen shows revision 2, which Core Equity's known target no longer equals.
      await expect.poll(() => coreModel.getAttribute('data-sync')).toBe('out-of-sync');
      await follows
        .getByText('Follows “Core model” (revision 2) · out of sync: 1 symbol differs')
        .waitFor();
      await list.getByRole('button', { name: /^Core model\s*revision 2/ }).waitFor();
      await coreFollower.getByText('revision 2 (the latest)').waitFor();
      await expect
        .poll(() => coreFollower.locator('.sync').getAttribute('data-sync'))
        .toBe('out-of-sync');

      // Nothing was read again: the save is the one call, the event carried the rest. Quiet for
      // longer than the book waits before it reads the rows in view again (300 ms).
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(calls).toEqual({ book: [], overview: [], models: ['models.saveRevision'] });
      expect(problems).toEqual([[], [], []]);
    },
    90_000,
  );
});
