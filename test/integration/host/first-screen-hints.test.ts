import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../../electron/host/build-renderer';
import { startHost, type RunningHost } from '../../../electron/host';
import { openDeskHarness, type DeskHarness } from '../../support/desk-harness';

/**
 * A profile's first screen is its book: the browser host tells the page so and to fetch the
 * book's code with its own, so that it is not asked for, nor run, only after the entry has run
 * and the first screen's call is answered. An empty data folder (the welcome screen) is told
 * nothing more.
 */
let h: DeskHarness;
let host: RunningHost;
let staticDir: string;
beforeAll(async () => {
  h = await openDeskHarness();
  staticDir = await ensureRendererBuilt();
  host = await startHost({
    handlers: h.desk,
    subscribe: (listener) => h.desk.subscribe(listener),
    staticDir,
  });
}, 120_000);
afterAll(async () => {
  await host?.close();
  await h?.close();
});

const page = async () => {
  const answer = await fetch(`http://127.0.0.1:${host.port}/`);
  expect(answer.status).toBe(200);
  expect(answer.headers.get('cache-control')).toBe('no-cache');
  return answer.text();
};

/** The book's chunk and the chunks it imports, as the build's manifest names them. */
function bookFiles(): { scripts: string[]; styles: string[] } {
  const manifest = JSON.parse(
    readFileSync(join(staticDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }>;
  const book = manifest['src/book/BookView.svelte']!;
  // The entry's own imports (and theirs) are named by the built page already; the book's, and
  // the chunks those import in turn, are the hints.
  const closure = (key: string, into: Set<string>): Set<string> => {
    if (into.has(key) || !manifest[key]) return into;
    into.add(key);
    for (const next of manifest[key].imports ?? []) closure(next, into);
    return into;
  };
  const fromEntry = closure('index.html', new Set());
  const imported = [...closure('src/book/BookView.svelte', new Set())]
    .filter((key) => key !== 'src/book/BookView.svelte' && !fromEntry.has(key))
    .map((key) => manifest[key]!);
  return {
    scripts: [book.file, ...imported.map((c) => c.file)],
    styles: [...(book.css ?? []), ...imported.flatMap((c) => c.css ?? [])],
  };
}

describe("the page's hints for its first screen", () => {
  it("names the book's chunks once the data folder has a profile, and none before", async () => {
    const built = readFileSync(join(staticDir, 'index.html'), 'utf8');
    const preloads = (html: string) => [...html.matchAll(/rel="modulepreload"/g)].length;
    const empty = await page();
    expect(empty).toBe(built);
    expect(empty).not.toContain('BookView');
    expect(empty).not.toContain('strategy-desk-first-screen');

    h.desk.store.profiles.create({
      name: 'Book',
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'manager',
      environment: 'production',
    });
    const html = await page();
    // The page is told its first screen is a book: it starts on the book's code at once.
    expect(html).toContain('<meta name="strategy-desk-first-screen" content="book">');
    const { scripts, styles } = bookFiles();
    expect(scripts.length).toBeGreaterThan(1);
    for (const file of scripts)
      expect(html).toContain(`<link rel="modulepreload" crossorigin href="./${file}">`);
    for (const file of styles)
      expect(html).toContain(`<link rel="preload" as="style" crossorigin href="./${file}">`);
    // Only the book's: the entry is loaded by its own script tag, no other screen is hinted.
    expect(preloads(html)).toBe(preloads(built) + scripts.length);
    expect(html).not.toMatch(/StrategyPane-/);
    // Each hinted file is served.
    for (const file of [...scripts, ...styles]) {
      const answer = await fetch(`http://127.0.0.1:${host.port}/${file}`);
      expect(answer.status, file).toBe(200);
    }
    // The build's manifest stays private.
    expect((await fetch(`http://127.0.0.1:${host.port}/.vite/manifest.json`)).status).toBe(404);
  });
});
