import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { PROJECT_ROOT } from '../../electron/host/build-renderer';
import { launchChromium, screenshot } from '../support/e2e-browser';
import {
  chromiumPart,
  gridRows,
  newDraft,
  openDraftsTab,
  pasteText,
} from '../support/e2e-drafts-env';
import { itNeeds } from '../support/system-parts';

/**
 * Nothing typed is lost: the host runs as its own process, a draft is typed, the process is
 * killed with SIGKILL (no shutdown code runs), and after a restart every typed row is there.
 */
const withChromium = itNeeds(chromiumPart);
let dataDir: string;
let browser: Browser | undefined;
const children: ChildProcess[] = [];

/** Starts `electron/host/cli.ts` and resolves with the address it prints. */
function startHostProcess(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    'npx',
    ['tsx', 'electron/host/cli.ts', '--port', '0', '--data-dir', dataDir],
    {
      cwd: PROJECT_ROOT,
      // No Secret Service for the child: the sandbox secret stays in its memory.
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'disabled:' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`host did not start: ${out}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /Strategy desk is ready: (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`host exited (${code}): ${out}`)));
  });
}

/** The tsx process tree: kill the node process that serves, not just npx. */
function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL');
  });
}

beforeAll(async () => {
  if (!chromiumPart.available) return;
  dataDir = mkdtempSync(join(tmpdir(), 'strategy-desk-e2e-crash-'));
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('a draft survives the host being killed', () => {
  withChromium(
    'typed rows are whole after SIGKILL and restart',
    async () => {
      const first = await startHostProcess();
      const page = await browser!.newPage({ viewport: { width: 1360, height: 900 } });
      await page.goto(first.url);
      await page.getByRole('button', { name: 'Try the built-in sandbox' }).click();
      await openDraftsTab(page, first.url, 'Fresh Start');
      await newDraft(page, 'Typed then killed', 'Empty');
      await page.getByRole('button', { name: 'Add row' }).click();
      await page.keyboard.type('AAPL');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('12.345');
      await page.keyboard.press('Enter');
      await page.keyboard.type('brk.b');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.type('7');
      await pasteText(page, 'SPY\t20%\nQQQ\t0.000001\n');
      const typed = await gridRows(page);
      expect(typed).toEqual([
        { symbol: 'AAPL', weight: '12.345' },
        { symbol: 'brk.b', weight: '7' },
        { symbol: 'SPY', weight: '20' },
        { symbol: 'QQQ', weight: '0.000001' },
      ]);
      // "Soon after each edit": the autosave lands within a second, then the host dies.
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor({ timeout: 2_000 });
      await killHard(first.child);
      await page.close();

      const second = await startHostProcess();
      const again = await browser!.newPage({ viewport: { width: 1360, height: 900 } });
      await openDraftsTab(again, second.url, 'Fresh Start');
      await again.getByRole('heading', { name: 'Typed then killed', level: 2 }).waitFor();
      expect(await gridRows(again)).toEqual(typed);
      await screenshot(again, 'drafts-12-after-sigkill');
      await again.close();
      await killHard(second.child);
    },
    120_000,
  );
});
