import type { Browser, Page } from 'playwright-core';
import type { DraftRow, VersionDetail } from '../../shared/views';
import { ensureRendererBuilt } from '../../electron/host/build-renderer';
import { startHost, type RunningHost } from '../../electron/host';
import { openDeskHarness, sandboxAdmin, type DeskHarness } from './desk-harness';
import { launchChromium } from './e2e-browser';

/**
 * The Versions and Reports screens' end-to-end setting: the real desk (SQLite in a temp folder,
 * the keychain, the built-in sandbox over loopback HTTP) behind the browser host, in Chromium,
 * with the sandbox profile already chosen. The host can be restarted on a restarted desk.
 */
export interface VersionsE2E {
  harness: DeskHarness;
  host: RunningHost;
  browser: Browser;
  profileId: string;
  /** Sets how long each rebalance step takes in the sandbox. */
  setStepMs(ms: number): Promise<void>;
  /** Closes host and desk and opens both again on the same data folder and sandbox. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export async function openVersionsE2E(stepMs = 20): Promise<VersionsE2E> {
  const staticDir = await ensureRendererBuilt();
  const harness = await openDeskHarness({ stepMs });
  const profile = await harness.desk.profiles.useSandbox({});
  const serve = () =>
    startHost({
      handlers: harness.desk,
      subscribe: (listener) => harness.desk.subscribe(listener),
      staticDir,
    });
  let host = await serve();
  const browser = await launchChromium();
  const baseUrl = () => harness.sandbox()!.baseUrl;
  return {
    harness,
    get host() {
      return host;
    },
    browser,
    profileId: profile.id,
    async setStepMs(ms) {
      await sandboxAdmin(baseUrl(), 'PUT', '/sandbox/timing', { step_ms: ms });
    },
    async restart() {
      await host.close();
      await harness.restart();
      host = await serve();
    },
    async close() {
      await browser.close();
      await host.close();
      await harness.close();
    },
  };
}

/** Creates a draft through the desk contract, saves its rows and executes it. */
export async function executeDraft(
  e2e: VersionsE2E,
  strategyId: string,
  edit: (rows: DraftRow[]) => DraftRow[],
  start: 'target' | 'empty' | 'holdings' = 'target',
): Promise<VersionDetail> {
  const desk = e2e.harness.desk;
  const draft = await desk.drafts.create({
    profileId: e2e.profileId,
    strategyId,
    name: `e2e ${start}`,
    start,
  });
  await desk.drafts.saveRows({ draftId: draft.id, rows: edit(draft.rows) });
  const { version } = await desk.versions.execute({ draftId: draft.id });
  return version;
}

/** Selects a strategy by name in the sidebar, then one of its tabs. */
export async function openStrategyTab(
  page: Page,
  strategyName: string,
  tab: 'Overview' | 'Drafts' | 'Versions' | 'Reports',
): Promise<void> {
  const sidebar = page.getByRole('navigation', { name: 'Strategies' });
  await sidebar.getByRole('button', { name: new RegExp(`^${strategyName}\\b`) }).click();
  await page.getByRole('heading', { name: strategyName, level: 1 }).waitFor();
  await page.getByRole('tab', { name: tab }).click();
}

/** The text of every visible row of a table, cell by cell. */
export function tableRows(page: Page, tableName: string | RegExp): Promise<string[][]> {
  return page
    .getByRole('table', { name: tableName })
    .locator('tbody tr:not([aria-hidden])')
    .evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
}
