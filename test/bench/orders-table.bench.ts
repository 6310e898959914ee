/**
 * orders_table_10k_vs_100_ratio (docs/testing.md, Speed): the time to render the version detail's
 * orders table (renderer/src/versions/OrdersTable.svelte, the real component) with 10,000 orders
 * over the same with 100 orders, in the same Chromium page, the same way: from the orders in
 * hand to the table finished, as the manager waits for it: rows painted and the buy and sell
 * totals shown (mount, flush, totals added up, the frame that shows them). A small page built by vite from
 * test/bench/orders-table/. Median of 9 runs each, alternating, after warm-ups. Goal: at most 2.
 * Omitted (with the reason) without Chromium.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromiumPart, launchChromium } from '../support/e2e-browser';
import { median } from '../support/median';

const RUNS = 9;
const WARMUPS = 3;
const ENTRY = fileURLToPath(new URL('./orders-table', import.meta.url));
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
};

async function buildPage(outDir: string): Promise<void> {
  const [{ build }, { svelte }] = await Promise.all([
    import('vite'),
    import('@sveltejs/vite-plugin-svelte'),
  ]);
  await build({
    configFile: false,
    root: ENTRY,
    base: './',
    logLevel: 'error',
    plugins: [svelte()],
    build: { outDir, emptyOutDir: true, target: 'es2023', reportCompressedSize: false },
  });
}

function serve(dir: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir)) return void res.writeHead(403).end();
    readFile(file)
      .then((body) => {
        res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      })
      .catch(() => res.writeHead(404).end());
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ server, url: `http://127.0.0.1:${port}/` });
    }),
  );
}

export default async function ordersTableBench(): Promise<Record<string, number>> {
  if (!chromiumPart.available) {
    console.log(`orders_table_10k_vs_100_ratio omitted: ${chromiumPart.why}`);
    return {};
  }
  const outDir = await mkdtemp(join(tmpdir(), 'strategy-desk-orders-bench-'));
  const browser = await launchChromium();
  let server: Server | undefined;
  try {
    await buildPage(outDir);
    const served = await serve(outDir);
    server = served.server;
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(served.url);
    await page.locator('body[data-ready="true"]').waitFor();
    const render = (n: number) => page.evaluate((count) => window.renderOrders(count), n);
    for (let i = 0; i < WARMUPS; i++) {
      await render(100);
      await render(10_000);
    }
    const small: number[] = [];
    const large: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      small.push(await render(100));
      large.push(await render(10_000));
    }
    console.log(
      `  orders table: 100 orders ${median(small).toFixed(1)} ms, 10,000 orders ${median(large).toFixed(1)} ms (median of ${RUNS})`,
    );
    return {
      orders_table_10k_vs_100_ratio: Math.round((median(large) / median(small)) * 100) / 100,
    };
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}
