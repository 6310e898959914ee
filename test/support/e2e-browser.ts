import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium, realSystem } from './chromium-finder';

/** The Chromium the e2e tests drive (see chromium-finder.ts for where it is looked for). */
export const chromiumLookup = findChromium(realSystem());
export const chromiumPart = {
  name: 'Chromium',
  available: chromiumLookup.found,
  why: chromiumLookup.found ? undefined : chromiumLookup.why,
};

/**
 * Flags that work everywhere, including as root in a container (no sandbox there). Headless
 * Chromium draws no scrollbar at all unless `scrollbars` is set: then it draws them as the app's
 * window does, for the tests of what a manager sees (a scrollbar that shows a table scrolls).
 */
export function launchChromium(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  if (!chromiumLookup.found) throw new Error(`Chromium is not available: ${chromiumLookup.why}`);
  return chromium.launch({
    executablePath: chromiumLookup.path,
    ...(options.scrollbars && { ignoreDefaultArgs: ['--hide-scrollbars'] }),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../screenshots', import.meta.url));

/** Saves the page under screenshots/ (git-ignored) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Console errors and page errors (a CSP violation shows up here), for the test to assert none. */
export function collectPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return problems;
}
