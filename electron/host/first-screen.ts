import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Vite's record of the build (build.manifest): which files each source became. */
type Manifest = Record<
  string,
  { file: string; imports?: string[]; css?: string[]; isEntry?: boolean }
>;

/** The page's head says its first screen is a book with this (renderer/src/lib/screens.ts). */
const FIRST_SCREEN_META = 'strategy-desk-first-screen';

/** The source of the book's screen, as the build's manifest names it. */
const BOOK_SCREEN = 'src/book/BookView.svelte';

/**
 * The `<link>`s that fetch the book's chunk (its scripts and styles, not the entry's) alongside
 * the entry, and a `<meta>` saying the first screen is a book: a profile's first screen is its
 * book, and without them its code is asked for, then run, only once the entry has run and the
 * first screen's call is answered, one after another. Empty when the build has no manifest or no
 * book (the page then loads the chunk itself, as before).
 */
export async function bookPreloadTags(staticDir: string): Promise<string> {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(
      await readFile(join(staticDir, '.vite', 'manifest.json'), 'utf8'),
    ) as Manifest;
  } catch {
    return '';
  }
  if (!manifest[BOOK_SCREEN]) return '';
  // What the entry loads itself (its page names them already).
  const loaded = new Set<string>();
  const walkEntry = (key: string) => {
    if (loaded.has(key) || !manifest[key]) return;
    loaded.add(key);
    for (const imported of manifest[key].imports ?? []) walkEntry(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walkEntry(key);
  const scripts: string[] = [];
  const styles: string[] = [];
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || loaded.has(key)) return;
    loaded.add(key);
    scripts.push(chunk.file);
    styles.push(...(chunk.css ?? []));
    for (const imported of chunk.imports ?? []) walk(imported);
  };
  walk(BOOK_SCREEN);
  const safe = (file: string) => /^assets\/[\w.-]+$/.test(file);
  return [
    // The page starts on the book's code at once, while its first call is answered.
    `<meta name="${FIRST_SCREEN_META}" content="book">`,
    ...scripts.filter(safe).map((f) => `<link rel="modulepreload" crossorigin href="./${f}">`),
    ...[...new Set(styles)]
      .filter(safe)
      .map((f) => `<link rel="preload" as="style" crossorigin href="./${f}">`),
  ].join('\n    ');
}

/** index.html with the hints put at the end of its head (unchanged without hints). */
export function withHints(html: string, tags: string): string {
  if (!tags || !html.includes('</head>')) return html;
  return html.replace('</head>', `  ${tags}\n  </head>`);
}
