/**
 * Renderer figures (docs/testing.md, Speed):
 * - renderer_js_gzip_kb: gzip size (KB, zlib's default level) of every JavaScript file of the
 *   renderer built with vite.config.ts into a temp folder (goal: at most 100).
 * - host_start_to_first_screen_ratio: from creating the desk (temp SQLite, in-memory secrets) and
 *   starting the browser host to the welcome screen visible in Chromium, over a baseline of
 *   starting a plain node:http server and showing a static blank page in the same Chromium, the
 *   same way. The median of 9 pairs' ratios after a warm-up. Omitted (with the reason) without Chromium.
 */
import { createServer } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { createDesk } from '../../electron/core/desk';
import { MemorySecretStore } from '../../electron/core/secrets';
import { builtInSandbox } from '../../electron/sandbox/embedded';
import { buildRenderer } from '../../electron/host/build-renderer';
import { startHost } from '../../electron/host';
import { chromiumPart, launchChromium } from '../support/e2e-browser';

/** Pairs of runs: the machines are noisy, and a blank page is quick, so a pair's ratio swings. */
const RUNS = 9;

async function jsGzipKb(outDir: string): Promise<number> {
  const files = (await readdir(outDir, { recursive: true })).filter((f) => f.endsWith('.js'));
  let bytes = 0;
  for (const file of files) bytes += gzipSync(await readFile(join(outDir, file))).length;
  return Math.round((bytes / 1024) * 10) / 10;
}

async function hostToFirstScreen(browser: Browser, staticDir: string): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), 'strategy-desk-bench-'));
  const page = await browser.newPage();
  const started = performance.now();
  const desk = await createDesk({
    dataDir,
    secretStore: new MemorySecretStore(),
    sandbox: builtInSandbox,
  });
  const host = await startHost({
    handlers: desk,
    subscribe: (l) => desk.subscribe(l),
    staticDir,
  });
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Try the built-in sandbox' }).waitFor();
  const elapsed = performance.now() - started;
  await page.close();
  await host.close();
  await desk.close();
  await rm(dataDir, { recursive: true, force: true });
  return elapsed;
}

async function blankPage(browser: Browser): Promise<number> {
  const page = await browser.newPage();
  const started = performance.now();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>blank</title><p id="ready">ready</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.locator('#ready').waitFor();
  const elapsed = performance.now() - started;
  await page.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return elapsed;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export default async function rendererBench(): Promise<Record<string, number>> {
  const outDir = await mkdtemp(join(tmpdir(), 'strategy-desk-renderer-'));
  try {
    await buildRenderer(outDir);
    const figures: Record<string, number> = { renderer_js_gzip_kb: await jsGzipKb(outDir) };
    if (!chromiumPart.available) {
      console.log(`host_start_to_first_screen_ratio omitted: ${chromiumPart.why}`);
      return figures;
    }
    const browser = await launchChromium();
    try {
      await blankPage(browser);
      await hostToFirstScreen(browser, outDir);
      // Each pair runs side by side (which goes first alternates); the figure is the median ratio.
      const ratios: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const first = i % 2 === 0;
        const base1 = first ? await blankPage(browser) : 0;
        const host = await hostToFirstScreen(browser, outDir);
        const base = first ? base1 : await blankPage(browser);
        ratios.push(host / base);
      }
      figures.host_start_to_first_screen_ratio = Math.round(median(ratios) * 100) / 100;
    } finally {
      await browser.close();
    }
    return figures;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
