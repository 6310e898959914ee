/**
 * The book on screen while a big batch runs (docs/testing.md, Speed), the renderer in Chromium
 * against the browser host, the desk in this process, the sandbox in its own answering after
 * SERVICE_LATENCY_MS:
 *
 * - batch_execute_1000_book_open_vs_closed_ratio: sending a batch of 1,000 strategies with the
 *   book on screen (its order turned over as below), over sending another 1,000 with no screen
 *   open, the mean of one before and one after it. Goal ≤ 1.2: the events a batch makes carry
 *   what moved, and nothing re-reads the book for each of them.
 * - book_click_during_batch_p90_ms: while that batch is sent and its versions followed to their
 *   end, the book's sort order is turned over and over (the Ascending/Descending button): from
 *   the click to the first frame with the new first row, watched from inside the page. The 90th
 *   percentile of the clicks. Goal ≤ 200.
 *
 * Closed, open, closed again: the store grows by 1,000 versions with each, and the two closed
 * sides bracket the open one, so its growth weighs on both alike. Omitted without Chromium.
 * It says each phase's time as it goes (some minutes on a quiet machine, far more on a shared
 * one), and the p90 of the same clicks with nothing running: what the machine gives a click, to
 * tell its load from the batch's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { createDesk, type Desk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { buildRenderer } from '../../electron/host/build-renderer';
import { startHost } from '../../electron/host';
import { DEMO_CLIENTS } from '../../electron/sandbox/demo-data';
import { formatCount } from '../../shared/figures';
import { sandboxAdmin } from '../support/desk-harness';
import { chromiumPart, launchChromium } from '../support/e2e-browser';
import { SERVICE_LATENCY_MS, startSandboxProcess } from '../support/sandbox-process';
import { nextEvent, strategiesWithKnownTargets, timed } from './known-targets';

const SIZE = 1000;
/** Clicks before the batch, with nothing running. */
const IDLE_CLICKS = 20;
/** Between two clicks: a manager does not click faster. */
const CLICK_PAUSE_MS = 250;

/**
 * Turns the book's order over and resolves with the time to the first frame whose first row is
 * another strategy (at most 60 s). A string: the page runs it as it is, no compiler helpers.
 */
const CLICK_SORT = `new Promise((resolve) => {
  const firstRow = () =>
    document.querySelector('table[aria-label="Book"] tbody tr.row[data-strategy]')
      ?.getAttribute('data-strategy') ?? null;
  const before = firstRow();
  const button = [...document.querySelectorAll('button')].find((b) =>
    /scending: sort/.test(b.getAttribute('aria-label') ?? ''));
  const started = performance.now();
  const give = () => requestAnimationFrame(() => resolve(performance.now() - started));
  const giveUp = setTimeout(() => { observer.disconnect(); resolve(60000); }, 60000);
  const observer = new MutationObserver(() => {
    const now = firstRow();
    if (now === null || now === before) return;
    observer.disconnect();
    clearTimeout(giveUp);
    give();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
  button.click();
})`;

/** The nearest-rank 90th percentile. */
const p90 = (xs: readonly number[]) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.9) - 1)]!;

/** Clicks the sort again and again until `done` settles; the times, in order. */
async function clicksUntil(page: Page, done: Promise<unknown>): Promise<number[]> {
  let over = false;
  void done.then(() => (over = true));
  const times: number[] = [];
  while (!over) {
    times.push(await page.evaluate<number>(CLICK_SORT));
    await new Promise((r) => setTimeout(r, CLICK_PAUSE_MS));
  }
  return times;
}

export default async function bookBatchBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`book-during-batch figures omitted: ${chromiumPart.why}`);
    return {};
  }
  const t0 = performance.now();
  const phase = (what: string) =>
    console.log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  const root = mkdtempSync(join(tmpdir(), 'strategy-desk-bench-book-batch-'));
  const staticDir = await buildRenderer(join(root, 'renderer'));
  const sandbox = await startSandboxProcess();
  const desk = await createDesk({
    dataDir: join(root, 'data'),
    secretStore: new MemorySecretStore(),
  });
  const host = await startHost({
    handlers: desk,
    subscribe: (l) => desk.subscribe(l),
    hasProfiles: () => desk.store.profiles.list().length > 0,
    staticDir,
  });
  const browser = await launchChromium();
  try {
    const { client_id, client_secret } = DEMO_CLIENTS.manager;
    const { id: profileId } = await desk.profiles.create({
      name: 'Bench',
      baseUrl: sandbox.baseUrl,
      clientId: client_id,
      secret: client_secret,
    });
    phase('started');
    const ids = await strategiesWithKnownTargets(desk, sandbox.baseUrl, profileId, 3 * SIZE);
    phase('strategies added and imported');
    // The model: the first strategy's target with one weight raised, so every strategy moves.
    const model = await desk.models.create({
      name: 'Bench model',
      start: { kind: 'strategy', profileId, strategyId: ids[0]! },
    });
    const rows = model.rows.map((r, i) =>
      i === 0 ? { ...r, weight: `${Number(r.weight) + 1}` } : r,
    );
    const revisionId = (await desk.models.saveRevision({ modelId: model.id, rows })).latest!.id;

    /** Sends a reviewed batch; `sent` resolves when sending is over, `ended` at its end. */
    const execute = async (desk: Desk, strategyIds: string[]) => {
      const { id: batchId } = await desk.batches.review({ profileId, revisionId, strategyIds });
      const ended = nextEvent(
        desk,
        (e) => e.type === 'batch-progress' && e.batchId === batchId && e.summary.endedAt !== null,
      );
      await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', {
        latency_ms: SERVICE_LATENCY_MS,
      });
      const sent = timed(async () => {
        await desk.batches.execute({
          batchId,
          unticked: [],
          acknowledged: [],
          stopAtFirstFailure: false,
        });
        await desk.batchFlow.sending(batchId);
      });
      const over = (async () => {
        await sent;
        await ended;
        await sandboxAdmin(sandbox.baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 0 });
      })();
      return { sent, over };
    };

    const closed = await execute(desk, ids.slice(0, SIZE));
    const closedMs = await closed.sent;
    phase('closed: sent');
    await closed.over;
    phase('closed: ended');

    const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
    await page.goto(host.url);
    await page
      .getByTestId('book-count')
      .getByText(`${formatCount(3 * SIZE)} strategies`)
      .waitFor({ timeout: 120_000 });
    // The same clicks with nothing running: what the machine gives a click now (it is shared).
    const idle: number[] = [];
    for (let i = 0; i < IDLE_CLICKS; i++) {
      idle.push(await page.evaluate<number>(CLICK_SORT));
      await new Promise((r) => setTimeout(r, CLICK_PAUSE_MS));
    }
    phase('idle clicks');
    const open = await execute(desk, ids.slice(SIZE, 2 * SIZE));
    const clicks = clicksUntil(page, open.over);
    const openMs = await open.sent;
    phase('open: sent');
    await open.over;
    phase('open: ended');
    const times = await clicks;
    await page.close();
    // Closed again, on a store as much larger than the open side's as the first was smaller.
    const closedAfter = await execute(desk, ids.slice(2 * SIZE));
    const closedAfterMs = await closedAfter.sent;
    phase('closed again: sent');
    await closedAfter.over;
    phase('closed again: ended');
    console.log(
      `  sending ms: closed ${closedMs.toFixed(0)}, open ${openMs.toFixed(0)}, ` +
        `closed again ${closedAfterMs.toFixed(0)}; ` +
        `${times.length} clicks, median ${[...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!.toFixed(0)} ms, ` +
        `worst ${Math.max(...times).toFixed(0)} ms (idle: p90 ${p90(idle).toFixed(0)} ms)`,
    );
    return {
      batch_execute_1000_book_open_vs_closed_ratio: Number(
        ((2 * openMs) / (closedMs + closedAfterMs)).toFixed(2),
      ),
      book_click_during_batch_p90_ms: Math.round(p90(times)),
    };
  } finally {
    await browser.close();
    await host.close();
    await desk.close();
    sandbox.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
