/**
 * The attention queue on screen, in Chromium against the browser host (docs/attention.md):
 * - attention_1000_vs_10_ratio: from choosing "Attention" (the app open on its book) to the
 *   queue shown (its count and its first signal) with 1,000 strategies, each with a snapshot of
 *   its last rebalance's end and one quantity changed since (1,000 signals), over the same with 10.
 *   The queue is computed in SQL from the stored snapshots and holdings: nothing is read from
 *   the service (the profile's address answers nothing). Goal: at most 2.
 * The ratio is the median of pairs run side by side (which goes first alternates), after a
 * warm-up. Omitted (with the reason) without Chromium.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { createDesk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { openStore } from '../../electron/core/store';
import { buildRenderer } from '../../electron/host/build-renderer';
import { startHost } from '../../electron/host';
import { chromiumPart, launchChromium } from '../support/e2e-browser';
import { median } from '../support/median';
import { seedLargeFolder } from './book-data';

const PAIRS = 7;

/** A book of `strategies`, each with its snapshot taken and one holding's quantity moved since. */
async function seedQueue(dataDir: string, secrets: MemorySecretStore, strategies: number) {
  const { profileId, strategyIds } = await seedLargeFolder(dataDir, secrets, {
    strategies,
    ordersPerVersion: 20,
    activity: 0,
  });
  const store = openStore(join(dataDir, 'strategy-desk.sqlite'));
  store.transaction(() => {
    for (const strategyId of strategyIds) {
      const versionId = store.versions.latestExecuted(profileId, strategyId)!.id;
      store.attention.takeSnapshot({
        profileId,
        strategyId,
        versionId,
        status: 'COMPLETE',
        at: new Date().toISOString(),
      });
      // A trade outside the app: the first holding's quantity is another since.
      const held = store.strategies.get(profileId, strategyId)!;
      const [first, ...rest] = held.positions!;
      store.strategies.upsert(profileId, {
        ...held,
        positions: [{ ...first!, quantity: `9${first!.quantity}` }, ...rest],
      });
    }
  });
  store.close();
}

async function serve(dataDir: string, secrets: MemorySecretStore, staticDir: string) {
  const desk = await createDesk({ dataDir, secretStore: secrets });
  const host = await startHost({
    handlers: desk,
    subscribe: (l) => desk.subscribe(l),
    hasProfiles: () => desk.store.profiles.list().length > 0,
    staticDir,
  });
  return {
    url: host.url,
    async close() {
      await host.close();
      await desk.close();
    },
  };
}

/** A page open on the app's book, and how long choosing Attention takes to show the queue. */
async function attentionPage(browser: Browser, url: string, signals: number) {
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(url);
  await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
  const expected = `${signals.toLocaleString('en-US')} signals`;
  return {
    async shown(): Promise<number> {
      await page.getByRole('button', { name: 'Book', exact: true }).click();
      await page.getByRole('heading', { name: 'Book', level: 1 }).waitFor();
      // The book shown, its first rows on screen: its own reads are over before Attention is
      // chosen (else the 1,000 book's reads and drawing are timed as the queue's).
      await page.locator('[data-strategy]').first().waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
      const started = performance.now();
      await page.getByRole('button', { name: 'Attention', exact: true }).click();
      // (No named functions in here: the bench's compiler would wrap them in a helper the page
      // does not have.)
      await page.evaluate(
        (text) =>
          new Promise<void>((resolve) => {
            const observer = new MutationObserver(() => {
              const done =
                (document
                  .querySelector('[data-testid="attention-count"]')
                  ?.textContent?.replace(/\s+/g, ' ')
                  .includes(text) ??
                  false) &&
                document.querySelector('ol[aria-label="Signals, first things first"] li') !== null;
              if (!done) return;
              observer.disconnect();
              requestAnimationFrame(() => resolve());
            });
            observer.observe(document, { childList: true, subtree: true, characterData: true });
            // Checked once now too: the queue may be there already.
            document.documentElement.append(document.createComment(''));
          }),
        expected,
      );
      return performance.now() - started;
    },
    close: () => page.close(),
  };
}

export default async function attentionBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`attention figures omitted: ${chromiumPart.why}`);
    return {};
  }
  const root = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-attention-'));
  const staticDir = await buildRenderer(join(root, 'renderer'));
  const browser = await launchChromium();
  const secrets = new MemorySecretStore();
  try {
    await seedQueue(join(root, 'ten'), secrets, 10);
    await seedQueue(join(root, 'thousand'), secrets, 1000);
    const ten = await serve(join(root, 'ten'), secrets, staticDir);
    const thousand = await serve(join(root, 'thousand'), secrets, staticDir);
    const small = await attentionPage(browser, ten.url, 10);
    const large = await attentionPage(browser, thousand.url, 1000);
    await small.shown();
    await large.shown();
    const ratios: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      if (i % 2 === 0) {
        const a = await small.shown();
        ratios.push((await large.shown()) / a);
      } else {
        const b = await large.shown();
        ratios.push(b / (await small.shown()));
      }
    }
    await small.close();
    await large.close();
    await ten.close();
    await thousand.close();
    return { attention_1000_vs_10_ratio: Math.round(median(ratios) * 100) / 100 };
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}
