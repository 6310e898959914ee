/**
 * activity_view_100k_vs_100_ratio (docs/testing.md, Speed): opening the Activity view of a
 * profile whose log holds 100,000 entries over the same with 100 entries. The real app: a desk on
 * SQLite in a temp folder (chained entries written by the seed helper), the browser host, the
 * built renderer in Chromium. Timed in the page, from the click on "Profile activity" to the
 * frame that shows the total and the first rows. Median of 9 runs each, alternating, after
 * warm-ups. Goal: at most 2. Omitted (with the reason) without Chromium.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createDesk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { ensureRendererBuilt } from '../../electron/host/build-renderer';
import { startHost } from '../../electron/host';
import { chromiumPart, launchChromium } from '../support/e2e-browser';
import { seedActivity } from '../support/activity-seed';
import { median } from '../support/median';

const RUNS = 9;
const WARMUPS = 3;
const SMALL = 100;
const LARGE = 100_000;

/** An app whose one profile has `count` entries, open in its own page of the browser. */
async function openApp(browser: Browser, staticDir: string, count: number) {
  const dataDir = await mkdtemp(join(tmpdir(), 'strategy-desk-activity-bench-'));
  const desk = await createDesk({ dataDir, secretStore: new MemorySecretStore() });
  // An address nothing answers at: the view reads only the local log.
  const profile = await desk.profiles.create({
    name: 'Bench',
    baseUrl: 'http://127.0.0.1:9',
    clientId: 'bench',
    secret: 'bench-secret',
  });
  seedActivity(desk.store, { profileId: profile.id, profileName: 'Bench', count });
  const host = await startHost({
    handlers: desk,
    subscribe: (l) => desk.subscribe(l),
    staticDir,
  });
  const page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.goto(host.url);
  // Settled: the profile chosen, its (empty) book read.
  await page.getByRole('cell', { name: /^No strategies yet/ }).waitFor();
  await page.getByRole('button', { name: 'Profile activity', disabled: false }).waitFor();
  // The profile's own creation is in its log too.
  const { total } = await desk.activity.list({ profileId: profile.id, offset: 0, limit: 1 });
  return {
    page,
    total,
    async close() {
      await page.close();
      await host.close();
      await desk.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the view and times it in the page: the click, then the total and a first row on screen,
 * then the frame that shows them. The timing runs in the page. A string, not a function: the bench runner's transpiler would add
 * helpers to a function that the page does not have.
 */
const OPEN_AND_TIME = `(async (n) => {
  // The view writes the total in the page's own locale.
  const expected = n.toLocaleString();
  const button = [...document.querySelectorAll('button')].find(
    (b) => b.textContent.trim() === 'Profile activity',
  );
  const shown = () =>
    (document.querySelector('[data-testid="activity-total"]')?.textContent ?? '').includes(expected) &&
    document.querySelector('tr.row[data-seq]') !== null;
  const started = performance.now();
  button.click();
  if (!shown()) {
    await new Promise((resolve, reject) => {
      const late = setTimeout(() => reject(new Error('the view did not show ' + expected + ' entries')), 30000);
      const observer = new MutationObserver(() => {
        if (!shown()) return;
        observer.disconnect();
        clearTimeout(late);
        resolve();
      });
      observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    });
  }
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - started;
})`;

/** Opens the view, times it, and closes it again. */
async function openActivity(page: Page, total: number): Promise<number> {
  const elapsed = (await page.evaluate(`${OPEN_AND_TIME}(${total})`)) as number;
  // Closed again: the next run opens it from scratch.
  await page.getByRole('button', { name: 'Profile activity' }).click();
  await page.getByRole('heading', { name: 'Activity' }).waitFor({ state: 'detached' });
  return elapsed;
}

export default async function activityViewBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`activity_view_100k_vs_100_ratio omitted: ${chromiumPart.why}`);
    return {};
  }
  const staticDir = await ensureRendererBuilt();
  const browser = await launchChromium();
  const apps: Awaited<ReturnType<typeof openApp>>[] = [];
  try {
    const small = await openApp(browser, staticDir, SMALL);
    apps.push(small);
    const large = await openApp(browser, staticDir, LARGE);
    apps.push(large);
    for (let i = 0; i < WARMUPS; i++) {
      await openActivity(small.page, small.total);
      await openActivity(large.page, large.total);
    }
    const smallTimes: number[] = [];
    const largeTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      smallTimes.push(await openActivity(small.page, small.total));
      largeTimes.push(await openActivity(large.page, large.total));
    }
    console.log(
      `  activity view: ${SMALL} entries ${median(smallTimes).toFixed(1)} ms, ${LARGE.toLocaleString('en-US')} entries ${median(largeTimes).toFixed(1)} ms (median of ${RUNS})`,
    );
    return {
      activity_view_100k_vs_100_ratio:
        Math.round((median(largeTimes) / median(smallTimes)) * 100) / 100,
    };
  } finally {
    for (const app of apps) await app.close();
    await browser.close();
  }
}
