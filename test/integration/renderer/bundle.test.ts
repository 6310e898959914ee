import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureRendererBuilt } from '../../../electron/host/build-renderer';

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
});
