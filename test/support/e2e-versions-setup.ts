import type { Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { DraftRow, VersionDetail } from '../../shared/views';
import { openAppE2E, type AppE2E } from './e2e-app';

/** The Versions and Reports screens' end-to-end setting (see openAppE2E). */
export type VersionsE2E = AppE2E;

export function openVersionsE2E(stepMs = 20): Promise<VersionsE2E> {
  return openAppE2E({ stepMs });
}

/**
 * One test file's setting: opened before its tests where Chromium is there (the tests skip
 * otherwise), closed after them. The getter is for use inside the tests.
 */
export function useVersionsE2E(available: boolean): () => VersionsE2E {
  let e2e: VersionsE2E | undefined;
  beforeAll(async () => {
    if (available) e2e = await openVersionsE2E();
  }, 120_000);
  afterAll(async () => {
    await e2e?.close();
  });
  return () => {
    if (!e2e) throw new Error('The versions setting is open only inside a test that has Chromium');
    return e2e;
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
