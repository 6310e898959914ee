import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRenderer, ensureRendererBuilt } from '../../../electron/host/build-renderer';

/**
 * The renderer as it ships: built with NODE_ENV=production, as the package script's `vite build`
 * builds it. Under vitest NODE_ENV is "test", which makes Svelte's runtime its development build
 * (its dev checks and warnings, about 10 KB gzipped more): sizes are measured on what ships.
 */
async function productionBuild(outDir: string): Promise<string> {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await buildRenderer(outDir);
  } finally {
    process.env.NODE_ENV = before;
  }
}

/**
 * The renderer validates nothing with zod (the main process does, at the boundary): a value
 * import of a schema module anywhere under shared/ that the renderer reaches would pull all of
 * zod into the page, about 25 KB gzipped. The lint rule sees only the renderer's own imports;
 * this sees the built bundle.
 */
describe('the built renderer', () => {
  it('carries no zod', async () => {
    const dir = join(await ensureRendererBuilt(), 'assets');
    const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const code = readFileSync(join(dir, name), 'utf8');
      expect(code.includes('ZodError') || code.includes('_zod'), name).toBe(false);
    }
  }, 120_000);

  it('loads its first screen in at most 40 KB of gzipped JavaScript, each later screen in a chunk of its own of at most 40 KB', async () => {
    const out = mkdtempSync(join(tmpdir(), 'renderer-production-'));
    const root = await productionBuild(out);
    const dir = join(root, 'assets');
    const gz = (file: string) => gzipSync(readFileSync(join(dir, file))).length / 1024;
    const html = readFileSync(join(root, 'index.html'), 'utf8');
    // What the page loads before its first screen: the entry and the modules it imports statically.
    const first = new Set<string>();
    const todo = [...html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
    while (todo.length > 0) {
      const file = todo.pop()!;
      if (first.has(file)) continue;
      first.add(file);
      const code = readFileSync(join(dir, file), 'utf8');
      for (const m of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) todo.push(m[1]!);
    }
    const firstKb = [...first].reduce((kb, file) => kb + gz(file), 0);
    expect(firstKb).toBeLessThanOrEqual(40);
    const scripts = readdirSync(dir).filter((name) => name.endsWith('.js'));
    // The book and a strategy's pane are not on the first screen's way: chunks of their own.
    for (const screen of ['BookView-', 'StrategyPane-', 'DraftsTab-', 'VersionsTab-'])
      expect(
        scripts.some((f) => f.startsWith(screen) && !first.has(f)),
        screen,
      ).toBe(true);
    for (const name of scripts) expect(gz(name), name).toBeLessThanOrEqual(40);
    rmSync(out, { recursive: true, force: true });
  }, 120_000);
});
