import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout's root: electron/host/ is two levels down. */
export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const RENDERER_DIST = join(PROJECT_ROOT, 'dist', 'renderer');
const SOURCES = ['renderer', 'shared', 'vite.config.ts'].map((p) => join(PROJECT_ROOT, p));

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** True when dist/renderer is missing or older than any source it is built from. */
export function rendererIsStale(outDir = RENDERER_DIST): boolean {
  const index = join(outDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built);
}

/** Builds the renderer with the project's vite.config.ts, into outDir (dist/renderer by default). */
export async function buildRenderer(outDir = RENDERER_DIST): Promise<string> {
  // vite is a development tool: loaded only when a build is needed.
  const { build } = await import('vite');
  await build({
    configFile: join(PROJECT_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

export async function ensureRendererBuilt(outDir = RENDERER_DIST): Promise<string> {
  if (rendererIsStale(outDir)) await buildRenderer(outDir);
  return outDir;
}
