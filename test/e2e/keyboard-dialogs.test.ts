import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { chromiumPart, collectPageProblems, screenshot } from '../support/e2e-browser';
import { newDraft, openDraftsEnv, openDraftsTab, type DraftsEnv } from '../support/e2e-drafts-env';
import { openStrategyTab } from '../support/e2e-versions-setup';
import { itNeeds } from '../support/system-parts';

/**
 * The app by keyboard, in Chromium against the real desk and sandbox: a skip link past the
 * sidebar; every dialog keeps Tab inside while open and gives the focus back to the control
 * that opened it; the CSV import has its name once; counts read the same in one message.
 */
const withChromium = itNeeds(chromiumPart);
let env: DraftsEnv | undefined;

beforeAll(async () => {
  if (chromiumPart.available) env = await openDraftsEnv();
}, 120_000);
afterAll(async () => env?.close());

/** What has the focus: its text or name, and whether it is inside an open dialog. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      label: el ? (el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName) : '',
      tag: el?.tagName.toLowerCase() ?? '',
      inDialog: !!el?.closest('dialog[open]'),
    };
  });

/** Tab (or Shift+Tab) round a dialog twice over: the focus never leaves it. */
async function expectTabStaysIn(page: Page, stops: number) {
  for (const key of ['Tab', 'Shift+Tab']) {
    const seen: string[] = [];
    for (let i = 0; i < stops * 2 + 2; i++) {
      await page.keyboard.press(key);
      const now = await focused(page);
      expect(now.inDialog, `${key} ${i + 1}: the focus left the dialog (on ${now.tag})`).toBe(true);
      seen.push(now.label);
    }
    expect(new Set(seen).size).toBeGreaterThanOrEqual(Math.min(2, stops));
  }
}

describe('keyboard and dialogs', () => {
  withChromium(
    'the first Tab offers "Skip to main content", which lands past the sidebar',
    async () => {
      const page = await env!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      const problems = collectPageProblems(page);
      await page.goto(env!.host.url);
      await openStrategyTab(page, 'Core Equity', 'Overview');
      // From the top of the page, as after a load: a stop put before everything, then Tab.
      await page.evaluate(() => {
        const top = document.createElement('button');
        top.textContent = 'top';
        document.body.prepend(top);
        top.focus();
        top.addEventListener('blur', () => top.remove());
      });
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to main content' });
      expect(await skip.evaluate((a) => a === document.activeElement)).toBe(true);
      const box = (await skip.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      await screenshot(page, 'keyboard-01-skip-link');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');
      await page.keyboard.press('Tab');
      const next = await page.evaluate(() => ({
        inMain: !!document.activeElement?.closest('main'),
        inSidebar: !!document.activeElement?.closest('aside'),
      }));
      expect(next).toEqual({ inMain: true, inSidebar: false });
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    'the confirmation: Tab stays inside, Escape and Cancel give the focus back to Execute…',
    async () => {
      const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Core Equity');
      await newDraft(page, 'Keyboard', 'From the current target');
      const execute = page.getByRole('button', { name: 'Execute…' });
      const dialog = page.getByRole('dialog');
      const isExecute = () => execute.evaluate((b) => b === document.activeElement);

      // Opened by keyboard, closed with Escape: the focus is on Execute… again.
      await execute.focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: 'Execute rebalance' }).waitFor();
      const stops = await dialog.evaluate(
        (d) =>
          [...d.querySelectorAll<HTMLElement>('button, input, select, a[href]')].filter(
            (el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0,
          ).length,
      );
      await expectTabStaysIn(page, stops);
      await screenshot(page, 'keyboard-02-confirmation');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(isExecute).toBe(true);

      // Opened with a click, closed with Cancel: the same.
      await execute.click();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await expect.poll(isExecute).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    '"Remove from app…": Tab stays inside its dialog, Escape gives the focus back',
    async () => {
      const page = await env!.browser.newPage({ viewport: { width: 1024, height: 700 } });
      const problems = collectPageProblems(page);
      await page.goto(env!.host.url);
      await openStrategyTab(page, 'Fresh Start', 'Overview');
      const remove = page.getByRole('button', { name: 'Remove from app…' });
      await remove.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: /^Remove “Fresh Start”/ });
      await dialog.waitFor();
      await expectTabStaysIn(page, 2);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => remove.evaluate((b) => b === document.activeElement)).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  withChromium(
    '"Import CSV…" is one named control, and its message counts rows one way',
    async () => {
      const page = await env!.browser.newPage({ viewport: { width: 1400, height: 900 } });
      const problems = collectPageProblems(page);
      await openDraftsTab(page, env!.host.url, 'Fresh Start');
      await newDraft(page, 'Many rows', 'Empty');
      const tools = page.getByRole('toolbar', { name: 'Draft tools' });
      const input = tools.getByRole('button', { name: 'Import CSV…', exact: true });
      expect(await input.evaluate((el) => (el as HTMLInputElement).type)).toBe('file');
      // Named by itself, and read once: no loose text beside it repeats the name.
      expect(await input.getAttribute('aria-label')).toBe('Import CSV…');
      const tree = await tools.ariaSnapshot();
      expect(tree.match(/Import CSV…/g)).toHaveLength(1);

      // The most rows a draft holds: its count reads grouped, as every count does.
      const lines = Array.from({ length: 1000 }, (_, i) => `S${String(i).padStart(4, '0')},0.05`);
      await input.setInputFiles({
        name: 'many.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`symbol,weight\n${lines.join('\n')}\n`),
      });
      const notice = page.getByText(/^Imported many\.csv:/);
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        'Imported many.csv: Read 1,000 rows: 1,000 added, 0 updated.',
      );
      await screenshot(page, 'keyboard-03-import-counts');
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
