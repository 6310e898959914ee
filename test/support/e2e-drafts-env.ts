import type { Page } from 'playwright-core';
import { openAppE2E, type AppE2E } from './e2e-app';
import { chromiumPart } from './e2e-browser';

/** The drafts end-to-end tests' world (see openAppE2E), with fast rebalance steps. */
export type DraftsEnv = AppE2E;

export function openDraftsEnv(options: Parameters<typeof openAppE2E>[0] = {}): Promise<DraftsEnv> {
  return openAppE2E({ stepMs: 10, ...options });
}

export { chromiumPart };

/** Opens the app, the strategy and its Drafts tab. */
export async function openDraftsTab(page: Page, url: string, strategy: string): Promise<void> {
  await page.goto(url);
  const sidebar = page.getByRole('navigation', { name: 'Strategies' });
  await sidebar.getByRole('button', { name: new RegExp(`^${strategy}\\b`) }).click();
  await page.getByRole('heading', { name: strategy, level: 1 }).waitFor();
  await page.getByRole('tab', { name: 'Drafts' }).click();
  await page.getByRole('heading', { name: /^Drafts/ }).waitFor();
}

/** Creates a draft from the given start through the form. */
export async function newDraft(
  page: Page,
  name: string,
  start: 'From the current target' | 'From the holdings (weights 0)' | 'Empty',
): Promise<void> {
  const form = page.getByRole('form', { name: 'New draft' });
  await form.getByLabel('New draft name').fill(name);
  await form.getByLabel('Start').selectOption({ label: start });
  await form.getByRole('button', { name: 'New draft' }).click();
  await page.getByRole('heading', { name, level: 2 }).waitFor();
}

/** Every draft row's symbol and weight as the grid shows them. */
export function gridRows(page: Page): Promise<{ symbol: string; weight: string }[]> {
  return page
    .getByRole('grid', { name: 'Draft rows' })
    .locator('tbody:not(.left-out) tr[data-key]')
    .evaluateAll((trs) =>
      trs.map((tr) => {
        const inputs = tr.querySelectorAll<HTMLInputElement>('input.cell');
        return { symbol: inputs[0]!.value, weight: inputs[1]!.value };
      }),
    );
}

/** Sends a paste of text to the focused element, as Ctrl+V from a spreadsheet would. */
export async function pasteText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.activeElement!.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}

/** The grid row of a symbol. */
export function rowOf(page: Page, symbol: string) {
  return page
    .getByRole('grid', { name: 'Draft rows' })
    .locator('tr[data-key]')
    .filter({ has: page.getByLabel(`Draft weight % of ${symbol}`, { exact: true }) });
}

/** Waits for the autosave to say Saved. */
export async function waitSaved(page: Page): Promise<void> {
  await page
    .getByRole('status')
    .filter({ hasText: /^Saved$/ })
    .waitFor();
}
