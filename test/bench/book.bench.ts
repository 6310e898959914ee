/**
 * The book on screen, in Chromium against the browser host (docs/testing.md, Speed):
 * - book_table_1000_vs_10_ratio: from opening the app to the book shown (its first rows, the
 *   counts per flag complete) with 1,000 strategies, over the same with 10. Goal: at most 2.
 * - start_large_vs_empty_ratio: from starting the desk and the host to the first screen on
 *   screen (watched from inside the page: `shown`), with a data folder of 1,000 strategies,
 *   1,000,000 cached orders and 100,000 activity entries (the book), over an empty data folder
 *   (the welcome screen). Goal: at most 1.5.
 * - book_rss_before_mb, book_rss_after_mb: the resident set of the app's process (the browser
 *   host, the desk in a plain Node process as in the Electron main process) with a 1,000-strategy
 *   book added, before it is shown, and after showing it, refreshing every strategy against the
 *   sandbox and scrolling it end to end. Reported, no goal.
 * - start_large_vs_small_ratio: the same start with the large data folder over a folder of 10
 *   strategies and no cache: what the cache itself adds to the first screen (no goal; the
 *   figure above also holds the frame and the book against the plain welcome screen).
 * Each ratio is the median of pairs run side by side (which goes first alternates), after a
 * warm-up. Omitted (with the reason) without Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createDesk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { buildRenderer, ensureRendererBuilt } from '../../electron/host/build-renderer';
import { startHost } from '../../electron/host';
import { startSandbox } from '../../electron/sandbox';
import { builtInSandbox } from '../../electron/sandbox/embedded';
import { DEMO_CLIENTS } from '../../electron/sandbox/demo-data';
import { execFileSync } from 'node:child_process';
import { chromiumPart, launchChromium } from '../support/e2e-browser';
import { sandboxAdmin } from '../support/desk-harness';
import { spawnHost } from '../support/host-process';
import { createHttpBridge } from '../../renderer/src/bridge/http-bridge';
import { seedLargeFolder } from './book-data';
import { median } from '../support/median';

const PAIRS = 7;

/** A started desk and host on a data folder, and how to open its first screen. */
async function serve(dataDir: string, secrets: MemorySecretStore, staticDir: string) {
  const desk = await createDesk({ dataDir, secretStore: secrets, sandbox: builtInSandbox });
  // As the browser host's cli starts it.
  const host = await startHost({
    handlers: desk,
    subscribe: (l) => desk.subscribe(l),
    hasProfiles: () => desk.store.profiles.list().length > 0,
    staticDir,
  });
  return {
    desk,
    host,
    async close() {
      await host.close();
      await desk.close();
    },
  };
}

/** Opens the app in a fresh page and waits for the book, its rows and its counts. */
async function bookShown(browser: Browser, url: string, strategies: number): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const started = performance.now();
  await page.goto(url);
  await page
    .getByTestId('book-count')
    .getByText(`${strategies.toLocaleString('en-US')} strategies`)
    .waitFor();
  await page
    .getByRole('table', { name: 'Book' })
    .locator('tbody tr.row[data-strategy]')
    .first()
    .waitFor();
  await page
    .getByRole('group', { name: 'Filter by flag' })
    .getByRole('button', { name: /^Failed \d/ })
    .waitFor();
  const elapsed = performance.now() - started;
  await page.close();
  return elapsed;
}

/**
 * Resolves at the first frame after the page shows `screen`: the welcome screen, or the book with
 * its count of strategies and its first row. Watched from inside the page (one round trip, a DOM
 * check on each change), so the figure is the app's time to its first screen and not the
 * observer's: a Playwright locator costs a round trip per wait and role queries that grow with
 * the page, about 100 ms more on the book than on the welcome screen here.
 */
async function shown(page: Page, screen: { book: string } | 'welcome'): Promise<void> {
  await page.evaluate(
    (expected) =>
      new Promise<void>((resolve) => {
        // (No named functions in here: the bench's compiler would wrap them in a helper the page
        // does not have.)
        const observer = new MutationObserver(() => {
          const done =
            expected === 'welcome'
              ? [...document.querySelectorAll('button')].some((b) =>
                  b.textContent?.includes('Try the built-in sandbox'),
                )
              : (document
                  .querySelector('[data-testid="book-count"]')
                  ?.textContent?.replace(/\s+/g, ' ')
                  .includes(`${expected.book} strategies`) ??
                  false) &&
                document.querySelector('table[aria-label="Book"] tbody tr.row[data-strategy]') !==
                  null;
          if (!done) return;
          observer.disconnect();
          requestAnimationFrame(() => resolve());
        });
        observer.observe(document, { childList: true, subtree: true, characterData: true });
        // Checked once now too: the screen may be there already.
        document.documentElement.append(document.createComment(''));
      }),
    screen,
  );
}

async function pairs(first: () => Promise<number>, second: () => Promise<number>) {
  await first();
  await second();
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    if (i % 2 === 0) {
      const a = await first();
      ratios.push((await second()) / a);
    } else {
      const b = await second();
      ratios.push(b / (await first()));
    }
  }
  return Math.round(median(ratios) * 100) / 100;
}

export default async function bookBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`book figures omitted: ${chromiumPart.why}`);
    return {};
  }
  const root = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-book-'));
  const staticDir = await buildRenderer(join(root, 'renderer'));
  const browser = await launchChromium();
  const secrets = new MemorySecretStore();
  const figures: Record<string, number> = {};
  try {
    // The book of 10 and of 1,000 (a cache of 20 orders a strategy).
    const small = join(root, 'small');
    const large = join(root, 'thousand');
    await seedLargeFolder(small, secrets, { strategies: 10, ordersPerVersion: 20, activity: 0 });
    await seedLargeFolder(large, secrets, { strategies: 1000, ordersPerVersion: 20, activity: 0 });
    const ten = await serve(small, secrets, staticDir);
    const thousand = await serve(large, secrets, staticDir);
    figures.book_table_1000_vs_10_ratio = await pairs(
      () => bookShown(browser, ten.host.url, 10),
      () => bookShown(browser, thousand.host.url, 1000),
    );
    await ten.close();
    await thousand.close();

    // Start to first screen: a large data folder against an empty one.
    const big = join(root, 'large');
    const t = performance.now();
    await seedLargeFolder(big, secrets, {
      strategies: 1000,
      ordersPerVersion: 1000,
      activity: 100_000,
    });
    console.log(`  (seeded 1,000,000 orders in ${((performance.now() - t) / 1000).toFixed(0)} s)`);
    const startEmpty = async () => {
      const dataDir = mkdtempSync(join(root, 'empty-'));
      const page = await browser.newPage();
      const started = performance.now();
      const served = await serve(dataDir, secrets, staticDir);
      await page.goto(served.host.url);
      await shown(page, 'welcome');
      const elapsed = performance.now() - started;
      await page.close();
      await served.close();
      rmSync(dataDir, { recursive: true, force: true });
      return elapsed;
    };
    /** From starting the desk and the host on `dataDir` to its book's first row on screen. */
    const startOnBook = async (dataDir: string, count: string) => {
      const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
      const started = performance.now();
      const served = await serve(dataDir, secrets, staticDir);
      await page.goto(served.host.url);
      await shown(page, { book: count });
      const elapsed = performance.now() - started;
      await page.close();
      await served.close();
      return elapsed;
    };
    const startLarge = () => startOnBook(big, '1,000');
    const startSmall = () => startOnBook(small, '10');
    figures.start_large_vs_empty_ratio = await pairs(startEmpty, startLarge);
    figures.start_large_vs_small_ratio = await pairs(startSmall, startLarge);

    // Memory: the app as its own process (the browser host: the desk in a plain Node process,
    // as in the app's main process), a 1,000-strategy book shown and refreshed.
    const memory = await hostMemory(browser, join(root, 'memory'));
    figures.book_rss_before_mb = memory.before;
    figures.book_rss_after_mb = memory.after;
    return figures;
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The resident set (MB) of the deepest process under `pid` running the host's cli.ts. */
function hostRss(pid: number): number {
  const table = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => {
      const [p, pp, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(p), ppid: Number(pp), rss: Number(rss), args: args.join(' ') };
    });
  let found = { rss: 0 };
  const walk = (parent: number) => {
    for (const child of table.filter((r) => r.ppid === parent)) {
      if (child.args.includes('electron/host/cli.ts')) found = child;
      walk(child.pid);
    }
  };
  walk(pid);
  return Math.round(found.rss / 1024);
}

async function hostMemory(browser: Browser, dataDir: string) {
  // Built here first: a host finding its build stale builds it itself, and Vite's memory would
  // stay in the figure.
  await ensureRendererBuilt();
  const sandbox = await startSandbox({ port: 0, stepMs: 0 });
  const host = spawnHost(dataDir);
  try {
    const url = new URL(await host.ready);
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!;
    const desk = createHttpBridge({ origin: url.origin, token });
    const profile = await desk.profiles.create({
      name: 'Memory',
      baseUrl: sandbox.baseUrl,
      clientId: DEMO_CLIENTS.manager.client_id,
      secret: DEMO_CLIENTS.manager.client_secret,
    });
    const created = (await sandboxAdmin(sandbox.baseUrl, 'POST', '/sandbox/strategies', {
      count: 1000,
      holdings: 8,
    })) as { data: { ids: string[] } };
    await desk.book.addMany({ profileId: profile.id, text: created.data.ids.join('\n') });
    for (;;) {
      const summary = await desk.book.summary({ profileId: profile.id });
      if (summary.add?.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const before = hostRss(host.child.pid!);
    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.goto(url.href);
    await page.getByTestId('book-count').getByText('1,000 strategies').waitFor();
    await page.getByRole('button', { name: 'Refresh all 1,000' }).click();
    await page.getByText(/^Refreshed 1,000 of 1,000\.$/).waitFor({ timeout: 120_000 });
    // Scrolled to the end and back: the rows read on the way are all the screen holds.
    const scroller = page.getByRole('region', { name: /Strategies of the book/ });
    await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await page.waitForTimeout(500);
    const after = hostRss(host.child.pid!);
    await page.close();
    return { before, after };
  } finally {
    await host.killHard();
    await sandbox.close();
  }
}
