import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium by default; CHROMIUM_PATH names another Chromium or Chrome (macOS, Windows). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const chromiumPart = {
  name: 'Chromium',
  available: existsSync(CHROMIUM_PATH),
  why: `${CHROMIUM_PATH} is missing (Debian package chromium, or set CHROMIUM_PATH)`,
};

/** Debian's Chromium as root in a container: these flags are the ones that work here. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
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
