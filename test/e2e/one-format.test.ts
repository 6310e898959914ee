import { afterAll, beforeAll, describe, expect } from 'vitest';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The app's words, in Chromium against the browser host, the real desk and the sandbox over
 * HTTP as the app ships it (with the demo model): the first screen says what the sandbox adds,
 * a refresh's line goes once an add changed the book, a tag over the limit is refused in words,
 * and every time of day is on the one 24-hour clock.
 */
const withChromium = itNeeds(chromiumPart);

describe('one way of saying things', () => {
  let app: BareAppE2E | undefined;
  beforeAll(async () => {
    if (chromiumPart.available) app = await openBareAppE2E({ stepMs: 0, demoModel: true });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  withChromium('what the sandbox adds, stale lines, long tags, one clock', async () => {
    const { harness, host } = app!;
    const page = await app!.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const problems = collectPageProblems(page);
    await page.goto(host.url);

    // The first screen says what the sandbox adds, and it adds that.
    await page.getByText('It adds demo strategies').waitFor();
    await page.getByText('the demo model that seven of them follow').waitFor();
    await page.getByRole('button', { name: 'Try the built-in sandbox' }).click();
    await page.getByText('10 strategies', { exact: false }).first().waitFor({ timeout: 30_000 });
    const [profile] = await harness.desk.profiles.list({});
    const book = await harness.desk.book.summary({ profileId: profile!.id });
    expect(book.counts.strategies).toBe(10);
    const models = await harness.desk.models.list({});
    expect(models.map((m) => [m.name, m.followers])).toEqual([['Demo model', 7]]);

    // A refresh's line, true when it ends; gone once an add has changed the book since.
    await page.getByRole('button', { name: /^Refresh all/ }).click();
    await page.getByText('Refreshed 10 of 10.').waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Add many' }).click();
    const panel = page.getByRole('region', { name: 'Add many strategies' });
    await panel.getByLabel('Strategy ids to add').fill('7d0c4a2e-9f1b-4c3d-8e5f-000000000001');
    await panel.getByRole('button', { name: 'Add', exact: true }).click();
    await panel.getByText('1 Not found', { exact: true }).waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByText('Refreshed 10 of 10.').count()).toBe(0);
    await panel.getByRole('button', { name: 'Close' }).click();

    // A tag over the limit is refused in words, not cut to fit.
    await page.getByRole('checkbox', { name: 'Choose Core Equity' }).check();
    await page.getByRole('checkbox', { name: 'Choose Dividend Growth' }).check();
    const chosen = page.getByRole('group', { name: 'Chosen strategies' });
    await chosen.getByText('2 strategies chosen').waitFor();
    await chosen.getByLabel('Tag').fill('t'.repeat(61));
    await chosen.getByRole('button', { name: 'Add tag' }).click();
    await chosen
      .getByText('A tag is at most 60 characters; this one has 61: shorten it.')
      .waitFor();
    expect(await chosen.getByLabel('Tag').inputValue()).toHaveLength(61);
    const tagged = await harness.desk.book.rows({
      profileId: profile!.id,
      query: { search: '', flags: [], tag: null, sort: 'name', descending: false },
      offset: 0,
      limit: 50,
    });
    expect(tagged.rows.flatMap((r) => r.tags)).toEqual([]);
    // Another choice: the note on the last one goes.
    await page.getByRole('checkbox', { name: 'Choose Fresh Start' }).check();
    await chosen.getByText('3 strategies chosen').waitFor();
    expect(await chosen.getByText('A tag is at most 60 characters').count()).toBe(0);

    // Times of day on the 24-hour clock, on the book and in the activity log alike.
    await page.getByRole('button', { name: 'Profile activity' }).click();
    await page
      .getByRole('table', { name: /activity/i })
      .locator('time')
      .first()
      .waitFor();
    await screenshot(page, 'one-format-activity');
    const text = await page.locator('body').innerText();
    expect(text).toMatch(/\b\d{2}:\d{2}:\d{2}\b/);
    expect(text).not.toMatch(/\b\d{1,2}:\d{2}(:\d{2})?\s?[AP]M\b/);
    expect(problems).toEqual([]);
  });
});
