import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { DEMO_CLIENTS, DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { ActivityDay } from '../support/activity-day';
import { openBareAppE2E, type BareAppE2E } from '../support/e2e-app';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * A removed profile's activity log outlives it: another profile's Activity view reads, checks and
 * exports it ("Log of"), and once every profile is removed the first screen still leads to it.
 */
const withChromium = itNeeds(chromiumPart);
const { client_id: CLIENT_ID, client_secret: SECRET } = DEMO_CLIENTS.manager;

describe('the activity of removed profiles', () => {
  let app: BareAppE2E | undefined;
  let day: ActivityDay;
  let baseUrl = '';

  beforeAll(async () => {
    if (!chromiumPart.available) return;
    app = await openBareAppE2E({ stepMs: 20 });
    baseUrl = (await app.harness.startSandbox()).baseUrl;
    day = new ActivityDay(app, baseUrl);
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  const newPage = async () => {
    const page = (day.page = await app!.browser.newPage({
      viewport: { width: 1360, height: 900 },
    }));
    return { page, problems: collectPageProblems(page) };
  };

  withChromium('are read, checked and exported after the profile is gone', async () => {
    const desk = day.desk;
    const profile = await desk.profiles.create({
      name: 'Day desk',
      baseUrl,
      clientId: CLIENT_ID,
      secret: SECRET,
    });
    const profileId = (day.profileId = profile.id);
    await desk.strategies.add({ profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity });
    await desk.strategies.remove({ profileId, strategyId: DEMO_STRATEGY_IDS.coreEquity });
    await desk.profiles.remove({ profileId });
    const kept = await day.all();
    expect(kept.map((e) => e.kind)).toEqual([
      'profile-created',
      'strategy-added',
      'strategy-removed',
      'profile-removed',
    ]);
    const removedEntry = kept.at(-1)!;

    // Another profile's Activity offers the removed one's log, and exports it.
    const evening = await desk.profiles.create({
      name: 'Evening desk',
      baseUrl,
      clientId: CLIENT_ID,
      secret: SECRET,
    });
    expect(await desk.activity.removedProfiles({})).toEqual([
      { profileId, profileName: 'Day desk', entries: 4, removedAt: removedEntry.at },
    ]);
    const first = await newPage();
    await first.page.goto(app!.host.url);
    await first.page.getByRole('button', { name: 'Profile activity' }).click();
    const logOf = first.page.getByLabel('Log of');
    expect(await logOf.inputValue()).toBe(evening.id);
    expect(await logOf.locator(`option[value="${profileId}"]`).textContent()).toMatch(
      /^Day desk \(removed .+, 4 entries\)$/,
    );
    await logOf.selectOption(profileId);
    await expect.poll(() => day.totalShown()).toBe(4);
    expect(await day.readInView(removedEntry)).toContain('Profile “Day desk” removed');
    await first.page.getByRole('button', { name: 'Export…' }).click();
    await first.page.getByRole('button', { name: /Export as JSON Lines/ }).click();
    await first.page.getByText('Saved 4 entries as JSON Lines').waitFor();
    const path = (await first.page.getByTestId('activity-export-path').textContent())!.trim();
    expect(JSON.parse(readFileSync(path, 'utf8').split('\n')[0]!)).toMatchObject({
      profileId,
      profileName: 'Day desk',
      entries: 4,
    });
    await screenshot(first.page, 'activity-removed-01-log-of');
    expect(first.problems).toEqual([]);
    await first.page.close();

    // Every profile removed: the first screen still leads to their logs, newest first.
    await desk.profiles.remove({ profileId: evening.id });
    const last = await newPage();
    await last.page.goto(app!.host.url);
    await last.page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
    const leftBehind = last.page.getByRole('region', { name: 'Activity of removed profiles' });
    await leftBehind.getByText('2 removed profiles left their activity log here').waitFor();
    await leftBehind.getByRole('button', { name: 'Open their activity' }).click();
    await expect.poll(() => last.page.getByLabel('Log of').inputValue()).toBe(evening.id);
    await expect.poll(() => day.totalShown()).toBe(2);
    await last.page.getByLabel('Log of').selectOption(profileId);
    await expect.poll(() => day.totalShown()).toBe(4);
    await day.rowOf(removedEntry.seq).waitFor();
    await screenshot(last.page, 'activity-removed-02-welcome');
    expect(last.problems).toEqual([]);
    await last.page.close();
  });
});
