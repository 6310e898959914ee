/**
 * Renderer figures (docs/testing.md, Speed):
 * - renderer_js_gzip_kb: gzip size (KB, zlib's default level) of every JavaScript file of the
 *   renderer built with vite.config.ts into a temp folder (no goal since the book: the app grows
 *   in chunks the first screen does not wait for; it was at most 100 in one bundle).
 * - renderer_first_screen_js_gzip_kb: the JavaScript the page loads before its first screen (the
 *   entry index.html names and every module it imports statically), gzipped (goal: at most 40).
 *   Every later screen, the book among them, loads as a chunk of its own when first shown.
 * - renderer_largest_chunk_js_gzip_kb: the largest of those chunks (goal: each at most 40).
 * - renderer_book_screen_js_gzip_kb: the first screen's JavaScript with the book's chunks (no
 *   goal: what a profile with strategies loads to show its book).
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
import { median } from '../support/median';

/** Pairs of runs: the machines are noisy, and a blank page is quick, so a pair's ratio swings. */
const RUNS = 9;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** The chunks a module imports statically (`from"./x.js"`, `import"./x.js"`), transitively. */
async function staticClosure(assets: string, start: string[]): Promise<Set<string>> {
  const seen = new Set<string>();
  const todo = [...start];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = await readFile(join(assets, file), 'utf8');
    for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) todo.push(m[1]!);
  }
  return seen;
}

/** The first screen's JavaScript, the largest chunk, and the book screen's JavaScript (KB gzip). */
async function chunkFigures(outDir: string): Promise<Record<string, number>> {
  const assets = join(outDir, 'assets');
  const html = await readFile(join(outDir, 'index.html'), 'utf8');
  const named = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const files = (await readdir(assets)).filter((f) => f.endsWith('.js'));
  const size = new Map<string, number>();
  for (const f of files) size.set(f, gzipSync(await readFile(join(assets, f))).length);
  const sum = (set: Set<string>) => [...set].reduce((n, f) => n + size.get(f)!, 0);
  const first = await staticClosure(assets, named);
  const book = await staticClosure(assets, [
    ...named,
    ...files.filter((f) => f.startsWith('BookView-')),
  ]);
  return {
    renderer_first_screen_js_gzip_kb: kb(sum(first)),
    renderer_largest_chunk_js_gzip_kb: kb(Math.max(...size.values())),
    renderer_book_screen_js_gzip_kb: kb(sum(book)),
  };
}

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

export default async function rendererBench(): Promise<Record<string, number>> {
  const outDir = await mkdtemp(join(tmpdir(), 'strategy-desk-renderer-'));
  try {
    await buildRenderer(outDir);
    const figures: Record<string, number> = {
      renderer_js_gzip_kb: await jsGzipKb(outDir),
      ...(await chunkFigures(outDir)),
    };
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
