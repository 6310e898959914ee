import { readFileSync } from 'node:fs';
import type { ElectronApplication, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../../electron/transport/app-identity';
import { CONTENT_SECURITY_POLICY } from '../../electron/transport/content-policy';
import { layout, launchApp, type LaunchedApp } from './electron-app';

/**
 * The real Electron app, started as a manager would with a fresh data folder: the built-in
 * sandbox, Core Equity, a one-row change executed to COMPLETE, the desktop notification; and at
 * runtime the hardening main.ts and preload.ts apply (docs/security.md).
 */
let launched: LaunchedApp;
let app: ElectronApplication;
let page: Page;

beforeAll(async () => {
  launched = await launchApp();
  app = launched.app;
  page = await app.firstWindow();
  // Record what leaves the app through the OS, instead of opening a browser or a notification.
  await app.evaluate(({ Notification, dialog, shell }) => {
    const seen = globalThis as unknown as {
      notices: object[];
      openedOutside: string[];
      asked: string[];
    };
    seen.notices = [];
    seen.openedOutside = [];
    seen.asked = [];
    // The link question (shell/links.ts), answered "Open in browser"; its first line is the URL.
    dialog.showMessageBox = (async (...args: unknown[]) => {
      const options = args[args.length - 1] as Electron.MessageBoxOptions;
      seen.asked.push(options.detail?.split('\n')[0] ?? '');
      return { response: 1, checkboxChecked: false };
    }) as typeof dialog.showMessageBox;
    const show = Notification.prototype.show;
    Notification.prototype.show = function (this: Electron.Notification) {
      seen.notices.push({ title: this.title, body: this.body });
      return show.call(this);
    };
    shell.openExternal = async (url: string) => {
      seen.openedOutside.push(url);
    };
  });
});

afterAll(async () => launched?.close());

const openedOutside = () =>
  app.evaluate(() => (globalThis as unknown as { openedOutside: string[] }).openedOutside);
const asked = () => app.evaluate(() => (globalThis as unknown as { asked: string[] }).asked);
const windowCount = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length);

describe('the Electron app', () => {
  it('keeps its data in the fresh folder it was given', async () => {
    const userData = await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'));
    expect(userData.startsWith(launched.dataHome)).toBe(true);
    await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
    expect(page.url()).toBe(`${APP_ORIGIN}/index.html`);
  });

  it('runs the renderer isolated and sandboxed, with no Node', async () => {
    // contextBridge refuses to expose anything without contextIsolation: window.desk proves it.
    const globals = await page.evaluate(() => ({
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
      module: typeof (globalThis as { module?: unknown }).module,
      desk: Object.keys((window as unknown as { desk: object }).desk).sort(),
    }));
    expect(globals).toEqual({
      require: 'undefined',
      process: 'undefined',
      module: 'undefined',
      desk: ['app', 'drafts', 'events', 'profiles', 'reports', 'strategies', 'versions'],
    });
    // The renderer process itself: under the OS sandbox (seccomp-bpf on Linux), which Electron
    // leaves off for a renderer with sandbox: false.
    const renderer = await app.evaluate(({ app: electronApp, BrowserWindow }) => {
      const pid = BrowserWindow.getAllWindows()[0]!.webContents.getOSProcessId();
      const metric = electronApp.getAppMetrics().find((m) => m.pid === pid);
      return { pid, type: metric?.type, sandboxed: metric?.sandboxed ?? null };
    });
    expect(renderer.type).toBe('Tab');
    if (process.platform === 'linux') {
      const status = readFileSync(`/proc/${renderer.pid}/status`, 'utf8');
      expect(status).toMatch(/^Seccomp:\s+2$/m);
    } else {
      expect(renderer.sandboxed).toBe(true);
    }
  });

  it('serves the page with the CSP header, which refuses an inline script', async () => {
    const csp = await page.evaluate(async () =>
      (await fetch(location.href)).headers.get('content-security-policy'),
    );
    // The protocol sets it and the session may add it again: every copy is the app's policy.
    expect(csp).not.toBeNull();
    for (const policy of csp!.split(', ')) expect(policy).toBe(CONTENT_SECURITY_POLICY);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.inline = "ran"';
      document.head.append(script);
      return document.body.dataset.inline ?? null;
    });
    expect(ran).toBeNull();
  });

  it('denies window.open and blocks navigation to another origin, sending links outside once asked', async () => {
    const opened = await page.evaluate(() => window.open('https://example.com/popup'));
    expect(opened).toBeNull();
    expect(await windowCount()).toBe(1);
    await expect.poll(openedOutside).toEqual(['https://example.com/popup']);

    await page.evaluate(() => {
      location.href = 'https://example.com/elsewhere';
    });
    await expect
      .poll(openedOutside)
      .toEqual(['https://example.com/popup', 'https://example.com/elsewhere']);
    // No profile's service: each address was named in the question before it opened.
    expect(await asked()).toEqual(['https://example.com/popup', 'https://example.com/elsewhere']);
    expect(page.url()).toBe(`${APP_ORIGIN}/index.html`);
    await page.getByRole('heading', { name: 'Welcome to Strategy desk' }).waitFor();
  });

  it('refuses a contract call from a second window of a foreign origin', async () => {
    const answer = await app.evaluate(async ({ BrowserWindow, session }, preload) => {
      // Its own session: the app's session would cancel the data: URL before it loads.
      const foreign = new BrowserWindow({
        show: false,
        webPreferences: {
          preload,
          sandbox: true,
          contextIsolation: true,
          session: session.fromPartition('foreign-frame'),
        },
      });
      await foreign.loadURL('data:text/html,<title>foreign</title>');
      const result: unknown = await foreign.webContents.executeJavaScript(
        'window.desk.profiles.list({}).then((r) => ({ answered: r }), (e) => ({ refused: e.message ?? String(e) }))',
      );
      foreign.destroy();
      return result;
    }, layout.preloadBundle);
    expect(answer).toEqual({ refused: 'This call did not come from the app window.' });
  });

  it('tries the built-in sandbox, executes a one-row change on Core Equity, sees COMPLETE and a notification', async () => {
    await page.getByRole('button', { name: 'Try the built-in sandbox' }).click();
    const sidebar = page.getByRole('navigation', { name: 'Strategies' });
    await sidebar.getByRole('button', { name: /^Core Equity\b/ }).click();
    await page.getByRole('heading', { name: 'Core Equity', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'Drafts' }).click();

    const form = page.getByRole('form', { name: 'New draft' });
    await form.getByLabel('New draft name').fill('Smoke');
    await form.getByLabel('Start').selectOption({ label: 'From the current target' });
    await form.getByRole('button', { name: 'New draft' }).click();
    await page.getByRole('heading', { name: 'Smoke', level: 2 }).waitFor();

    // One row changed: the first weight of the current target, lowered by one point.
    const weight = page
      .getByRole('grid', { name: 'Draft rows' })
      .locator('tbody:not(.left-out) tr[data-key]')
      .first()
      .locator('input.cell')
      .nth(1);
    const before = Number(await weight.inputValue());
    await weight.fill(String(before - 1));
    await page.getByText('No problems: the draft can be executed.').waitFor();

    await page.getByRole('button', { name: 'Execute…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Execute rebalance' }).click();
    await page.getByRole('tab', { name: 'Versions', selected: true }).waitFor();
    await page
      .locator('ol[aria-label="Rebalance steps"] li[data-status="COMPLETE"].complete')
      .waitFor({ timeout: 60_000 });

    await expect
      .poll(() => app.evaluate(() => (globalThis as unknown as { notices: object[] }).notices), {
        timeout: 15_000,
      })
      .toEqual([
        {
          title: 'Rebalance complete',
          body: 'Core Equity: every order of the new version has been handled.',
        },
      ]);
  });

  it('opens a link to the profile’s service without asking', async () => {
    const [profile] = await page.evaluate(() =>
      (
        window as unknown as {
          desk: { profiles: { list(i: object): Promise<{ baseUrl: string }[]> } };
        }
      ).desk.profiles.list({}),
    );
    const docs = new URL('/docs', profile!.baseUrl).href;
    const before = (await asked()).length;
    await page.evaluate((url) => window.open(url), docs);
    await expect.poll(async () => (await openedOutside()).at(-1)).toBe(docs);
    expect(await asked()).toHaveLength(before);
  });
});
