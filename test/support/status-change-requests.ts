import type { DeskEvent } from '../../shared/contract';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import type { AppE2E } from './e2e-app';
import { executeDraft, openStrategyTab } from './e2e-versions-setup';

/** One status change of the executed version and the renderer's requests that followed it. */
export interface StatusChangeRequests {
  status: string | null;
  ended: boolean;
  /** The channels the page posted to (`versions.get`, ...), in order. */
  channels: string[];
}

/** Long enough between steps for every answer to one status change to land before the next. */
const STEP_MS = 2_500;
/** After the last status change: quiet this long, and the requests it caused are all in. */
const SETTLE_MS = 1_500;

/**
 * Executes a version of Core Equity while its Versions tab shows that version's detail, and
 * counts the browser host requests (`POST /api/*`) the page makes after each status change of
 * it, until the next one. Requests are put with the last status change the desk announced
 * before the browser made them; the steps are far apart, so each change's requests are in
 * before the next change. The periodic status poll (every 15 s) is stretched out of the way:
 * it is not caused by any event.
 */
export async function statusChangeRequests(e2e: AppE2E): Promise<StatusChangeRequests[]> {
  const page = await e2e.browser.newPage({ viewport: { width: 1360, height: 900 } });
  await page.addInitScript(() => {
    const setInterval = window.setInterval.bind(window);
    window.setInterval = ((handler: TimerHandler, ms?: number, ...rest: unknown[]) =>
      setInterval(handler, ms !== undefined && ms >= 15_000 ? 3_600_000 : ms, ...rest)) as never;
  });
  const changes: StatusChangeRequests[] = [];
  let measuring = false;
  let versionId: string | null = null;
  let ended: () => void = () => undefined;
  const lastChange = new Promise<void>((resolve) => (ended = resolve));
  const unsubscribe = e2e.harness.desk.subscribe((event: DeskEvent) => {
    if (!measuring || event.type !== 'version-status-changed' || event.versionId !== versionId)
      return;
    changes.push({ status: event.status, ended: event.ended, channels: [] });
    if (event.ended) ended();
  });
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() !== 'POST' || !path.startsWith('/api/')) return;
    changes.at(-1)?.channels.push(path.slice('/api/'.length));
  });
  try {
    await e2e.setStepMs(STEP_MS);
    const version = await executeDraft(e2e, DEMO_STRATEGY_IDS.coreEquity, (rows) => rows);
    versionId = version.id;
    await page.goto(e2e.host.url);
    await openStrategyTab(page, 'Core Equity', 'Versions');
    await page.getByRole('button', { name: `Open version ${version.id.slice(0, 8)}` }).click();
    await page.getByRole('heading', { name: `Version ${version.id}` }).waitFor();
    await page.locator('ol[aria-label="Rebalance steps"]').waitFor();
    measuring = true;
    await lastChange;
    await page
      .locator('ol[aria-label="Rebalance steps"] li.complete[data-status="COMPLETE"]')
      .waitFor();
    await page.waitForTimeout(SETTLE_MS);
    return changes;
  } finally {
    unsubscribe();
    await page.close();
    await e2e.setStepMs(20);
  }
}
