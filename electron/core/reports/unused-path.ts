import { existsSync, mkdirSync } from 'node:fs';
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

/** Exports into `dir` (made private on first use), each under a name no earlier export has. */
export function exportsInto(dir: string): (name: string) => Promise<string> {
  return async (name) => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return unusedExportPath(dir, name);
  };
}
