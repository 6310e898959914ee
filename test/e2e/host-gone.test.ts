import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ensureRendererBuilt } from '../../electron/host/build-renderer';
import { chromiumPart, launchChromium, screenshot } from '../support/e2e-browser';
import { spawnHost, type HostProcess } from '../support/host-process';
import { itNeeds } from '../support/system-parts';

/**
 * An open tab outlives the browser host: killed, the tab says the app is not running (instead
 * of "Online"); restarted on the same address with a new access key, the tab says its key is
 * no longer valid (instead of failing every call in silence).
 */
const withChromium = itNeeds(chromiumPart);
let dataDir: string;
let browser: Browser | undefined;
const hosts: HostProcess[] = [];

beforeAll(async () => {
  if (!chromiumPart.available) return;
  dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-e2e-gone-'));
  await ensureRendererBuilt();
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const host of hosts) await host.killHard();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the open tab when the host goes away', () => {
  withChromium(
    'says the app is not running, then that its access key is no longer valid',
    async () => {
      const first = spawnHost(dataDir);
      hosts.push(first);
      const url = await first.ready;
      const port = Number(new URL(url).port);
      const page = await browser!.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
      const notice = page.getByRole('alertdialog');
      expect(await notice.count()).toBe(0);

      await first.killHard();
      await page
        .getByRole('alertdialog', { name: 'The app is not running' })
        .getByText('The app is not running: restart it and open the new address it prints.')
        .waitFor({ timeout: 20_000 });
      // What is behind the notice is stale: it cannot be used.
      expect(await page.locator('#app').evaluate((el: HTMLElement) => el.inert)).toBe(true);
      await screenshot(page, 'e2e-host-gone-01-not-running');

      // A new launch on the same address has a new key: this tab's key is refused.
      const second = spawnHost(dataDir, { port });
      hosts.push(second);
      await second.ready;
      await page
        .getByRole('alertdialog', { name: "This page's access key is no longer valid" })
        .waitFor({ timeout: 30_000 });
      await screenshot(page, 'e2e-host-gone-02-key-invalid');

      // The new address (with its new key) works again.
      await page.goto(await second.ready);
      await page.reload();
      await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await page.close();
    },
    120_000,
  );
});
