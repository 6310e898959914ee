import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { createDesk, type Desk } from '../../electron/core/desk';
import { sandboxStatePath } from '../../electron/core/onboarding/sandbox';
import { builtInSandbox } from '../../electron/sandbox/embedded';
import { openSecretStore, type SecretStore } from '../../electron/core/secrets';
import { DEMO_STRATEGY_IDS } from '../../electron/sandbox';
import { buildDemoState } from '../../electron/sandbox/demo-data';
import { toStateFile, writeStateFile } from '../../electron/sandbox/persistence';
import { ensureRendererBuilt } from '../../electron/host/build-renderer';
import { startHost, type RunningHost } from '../../electron/host';
import { sandboxAdmin } from '../support/desk-harness';
import {
  chromiumPart,
  collectPageProblems,
  launchChromium,
  screenshot,
} from '../support/e2e-browser';
import { itNeeds } from '../support/system-parts';

/**
 * The frame around every screen: the sidebar, the status bar, the offline banner, light and
 * dark, the keyboard. The embedded sandbox starts from a state file written here (the desk
 * passes `<dataDir>/sandbox-state.json`), with 10,000 holdings on Fresh Start and Dividend
 * Growth liquidate-only.
 */
const withChromium = itNeeds(chromiumPart);
const HOLDINGS = 10_000;

let dataDir: string;
let secrets: SecretStore;
let desk: Desk | undefined;
let host: RunningHost | undefined;
let browser: Browser | undefined;

function writeSandboxState(path: string) {
  const state = buildDemoState();
  const fresh = state.strategy(DEMO_STRATEGY_IDS.freshStart)!;
  const at = fresh.inserted_at;
  fresh.holdings = Array.from({ length: HOLDINGS }, (_, i) => ({
    id: randomUUID(),
    symbol: `H${String(i).padStart(5, '0')}`,
    quantity: `${i}.${String(i % 1000).padStart(3, '0')}`,
    inserted_at: at,
    updated_at: at,
  }));
  const dividend = state.strategy(DEMO_STRATEGY_IDS.dividendGrowth)!;
  dividend.is_liquidate_only = true;
  dividend.liquidate_only_reason = 'ORDER_FAILED';
  writeStateFile(
    path,
    toStateFile(
      {
        state,
        idempotency: new Map(),
        executionsAccepted: new Map(),
        tokenRequests: 0,
        apiRequests: 0,
      },
      new Date().toISOString(),
    ),
  );
}

beforeAll(async () => {
  if (!chromiumPart.available) return;
  const staticDir = await ensureRendererBuilt();
  dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-e2e-frame-'));
  writeSandboxState(sandboxStatePath(dataDir));
  secrets = await openSecretStore({ service: `strategy-desk-e2e-${randomUUID()}` });
  desk = await createDesk({
    dataDir,
    secretStore: secrets,
    sandbox: builtInSandbox,
    // A service that takes longer than this counts as not answering: offline.
    clientOptions: { timeouts: { connectMs: 800, requestMs: 800 }, retry: { attempts: 1 } },
    offlineProbeMs: 200,
  });
  const opened = desk;
  host = await startHost({
    handlers: opened,
    subscribe: (listener) => opened.subscribe(listener),
    staticDir,
  });
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  if (desk) {
    for (const profile of await desk.profiles.list({})) await secrets.delete(profile.id);
    await desk.close();
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const sidebarButton = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Strategies' }).getByRole('button', {
    name: new RegExp(`^${name}\\b`),
  });

/** Marks every control of the frame a Tab should reach; returns their descriptions. */
function markTabStops(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'button, select, input, textarea, a[href], summary, [tabindex]:not([tabindex="-1"])';
    const stops = [...document.querySelectorAll<HTMLElement>(`.frame ${selector}`)].filter(
      (el) =>
        !(el as HTMLButtonElement).disabled &&
        el.tabIndex >= 0 &&
        el.getClientRects().length > 0 &&
        getComputedStyle(el).visibility !== 'hidden',
    );
    stops.forEach((el, i) => el.setAttribute('data-tab-stop', String(i)));
    return stops.map(
      (el) =>
        `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`,
    );
  });
}

/** Tabs from the top of the page until focus comes back round; what was reached and how it looked. */
async function tabThrough(page: Page, max = 80) {
  // A temporary first stop, so the walk starts at the top of the page whatever had focus.
  await page.evaluate(() => {
    const start = document.createElement('button');
    start.id = 'tab-walk-start';
    start.textContent = 'start';
    document.body.prepend(start);
    start.focus();
  });
  const reached: { stop: string | null; label: string; focusVisible: boolean }[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body || el.id === 'tab-walk-start') return null;
      const style = getComputedStyle(el);
      const outlined = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1;
      return {
        stop: el.getAttribute('data-tab-stop'),
        label: `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}`,
        focusVisible: el.matches(':focus-visible') && (outlined || style.boxShadow !== 'none'),
      };
    });
    if (!info || (reached.length > 0 && info.stop === reached[0]!.stop)) break;
    reached.push(info);
  }
  await page.evaluate(() => document.getElementById('tab-walk-start')?.remove());
  return reached;
}

/** Controls without an accessible name, from the accessibility tree Chromium builds. */
async function unnamedControls(page: Page): Promise<string[]> {
  const tree = await page.locator('body').ariaSnapshot();
  return tree
    .split('\n')
    .filter((line) =>
      /^\s*- (button|textbox|combobox|link|tab|checkbox|region)( \[[^\]]*\])?:?$/.test(line),
    );
}

describe('the frame', () => {
  withChromium(
    'status bar, 10,000 holdings, keyboard, offline and back, dark mode',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      const problems = collectPageProblems(page);
      await page.goto(host!.url);
      await page.getByRole('button', { name: 'Try the built-in sandbox' }).click();
      await sidebarButton(page, 'Core Equity').click();
      await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
      await page.getByRole('table', { name: 'Holdings' }).waitFor();
      // The current target is named once: its version, time and status, then its weights.
      const target = page.getByRole('region', { name: 'Current target' });
      await target.getByRole('table').waitFor();
      expect(await target.getByText(/from version/).count()).toBe(1);
      expect(await target.locator('time').count()).toBe(1);

      // The status bar: online, last sync, running versions, attention, keychain.
      const status = page.getByRole('contentinfo', { name: 'Status' });
      await status.getByText('Online').waitFor();
      const statusText = (await status.textContent())!.replace(/\s+/g, ' ');
      expect(statusText).toMatch(/Latest sync \d/);
      expect(statusText).toContain('0 versions running');
      expect(statusText).toContain('0 executions need attention, all profiles');
      expect(statusText).toContain(
        // Only the sandbox's public demo secret is kept: no warning without a keychain.
        secrets.kind === 'keychain' ? 'Keychain' : 'No keychain',
      );
      await screenshot(page, 'e2e-frame-01-overview-light');

      // A refresh moves the status bar's last sync with the strategy's, not at its next read.
      const synced = () => page.locator('article.pane > header time').getAttribute('datetime');
      const before = await synced();
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect.poll(synced).not.toBe(before);
      await expect
        .poll(() => status.locator('time').first().getAttribute('datetime'))
        .toBe(await synced());

      // Keyboard: Tab reaches every control of the frame, each with a visible focus.
      const stops = await markTabStops(page);
      const reached = await tabThrough(page);
      const reachedStops = new Set(reached.map((r) => r.stop));
      expect(stops.filter((_, i) => !reachedStops.has(String(i)))).toEqual([]);
      expect(stops.length).toBeGreaterThan(8);
      expect(reached.filter((r) => !r.focusVisible).map((r) => r.label)).toEqual([]);
      expect(await unnamedControls(page)).toEqual([]);
      await page.getByRole('button', { name: 'Refresh' }).focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await screenshot(page, 'e2e-frame-02-keyboard-focus');

      // The tabs move with the arrow keys.
      await page.getByRole('tab', { name: 'Overview' }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await page.getByRole('tab', { name: 'Drafts' }).getAttribute('aria-selected')).toBe(
        'true',
      );
      await page.keyboard.press('ArrowLeft');

      // Liquidate-only, with its reason, on the Overview of Dividend Growth.
      await sidebarButton(page, 'Dividend Growth').click();
      const banner = page.getByRole('status').filter({ hasText: 'Liquidate-only.' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('ORDER_FAILED');
      await screenshot(page, 'e2e-frame-03-liquidate-only');

      // 10,000 holdings: only the rows in view are in the page, and the end is reachable by key.
      await sidebarButton(page, 'Fresh Start').click();
      await page.getByRole('heading', { name: 'Holdings (10,000)' }).waitFor();
      const table = page.getByRole('table', { name: 'Holdings' });
      expect(await table.getAttribute('aria-rowcount')).toBe(String(HOLDINGS + 1));
      expect(await table.locator('tbody tr.row').count()).toBeLessThan(80);
      const profileId = (await desk!.profiles.list({}))[0]!.id;
      const fresh = await desk!.strategies.get({
        profileId,
        strategyId: DEMO_STRATEGY_IDS.freshStart,
      });
      const last = fresh.holdings.at(-1)!;
      await page.getByRole('region', { name: /Holdings \(scroll/ }).focus();
      await page.keyboard.press('End');
      await table.getByRole('cell', { name: last.symbol, exact: true }).waitFor();
      expect(await table.locator('tbody tr.row').count()).toBeLessThan(80);
      await screenshot(page, 'e2e-frame-04-ten-thousand-holdings');

      // Offline: the service answers slower than the client waits. Banner and status bar say so.
      await sidebarButton(page, 'Core Equity').click();
      await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
      const baseUrl = (await desk!.profiles.list({}))[0]!.baseUrl;
      await sandboxAdmin(baseUrl, 'PUT', '/sandbox/faults', { latency_ms: 2500 });
      await page.getByRole('button', { name: 'Refresh' }).click();
      const offline = page.getByRole('status').filter({ hasText: 'Offline: the service' });
      await offline.waitFor();
      await status.getByText('Offline').waitFor();
      expect(await page.getByRole('table', { name: 'Holdings' }).count()).toBe(1);
      await screenshot(page, 'e2e-frame-05-offline');

      await sandboxAdmin(baseUrl, 'DELETE', '/sandbox/faults');
      await offline.getByRole('button', { name: 'Try again now' }).click();
      await offline.waitFor({ state: 'detached' });
      await status.getByText('Online').waitFor();

      // Dark, from the OS: dark backgrounds, light text, the same screens.
      const dark = await browser!.newContext({
        colorScheme: 'dark',
        viewport: { width: 1280, height: 800 },
      });
      const darkPage = await dark.newPage();
      const darkProblems = collectPageProblems(darkPage);
      // The access key lives in sessionStorage: open the same address the host printed.
      await darkPage.goto(host!.url);
      await sidebarButton(darkPage, 'Core Equity').click();
      await darkPage.getByRole('table', { name: 'Holdings' }).waitFor();
      const colours = await darkPage.evaluate(() => {
        const lum = (c: string) => {
          const [r, g, b] = (c.match(/\d+/g) ?? ['0', '0', '0']).map(Number);
          return (0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255;
        };
        const root = getComputedStyle(document.documentElement);
        return { bg: lum(root.backgroundColor), fg: lum(root.color) };
      });
      expect(colours.bg).toBeLessThan(0.2);
      expect(colours.fg).toBeGreaterThan(0.8);
      await screenshot(darkPage, 'e2e-frame-06-overview-dark');
      await darkPage.getByRole('button', { name: 'Profile settings' }).click();
      await darkPage.getByRole('button', { name: 'Test connection' }).click();
      await darkPage.getByText('Connected: the service granted 5 scopes.').waitFor();
      await screenshot(darkPage, 'e2e-frame-07-profile-dark');
      await sidebarButton(darkPage, 'Dividend Growth').click();
      await darkPage.getByText('Liquidate-only.').waitFor();
      await screenshot(darkPage, 'e2e-frame-08-liquidate-only-dark');
      await dark.close();

      expect(problems).toEqual([]);
      expect(darkProblems).toEqual([]);
      await page.close();
    },
    60_000,
  );
});
