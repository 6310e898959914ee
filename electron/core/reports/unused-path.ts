import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';

/**
 * Where an export goes when no save dialog asks (the browser host, tests): `dir/name`, or
 * `name (2).csv`, `name (3).csv`… when an earlier export already has that name, so an export
 * never silently replaces one made before.
 */
export function unusedExportPath(dir: string, name: string): string {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let n = 1; ; n++) {
    const candidate = join(dir, n === 1 ? name : `${stem} (${n})${extension}`);
    if (!existsSync(candidate)) return candidate;
  }
}
