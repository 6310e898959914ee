import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { PARTIAL_EXPORT_NAME } from './write';

/**
 * The temporary files a killed export left behind (`.<name>.<12 hex>.partial`, see write.ts),
 * removed at start: every one in the folders the app exports to by default, and every one it
 * knows of elsewhere (a folder chosen in a save dialog). Only files of that exact name, and only
 * plain files: a folder or a link of that name, or any other file, is left alone. Returns what
 * was removed; a file that cannot be removed is left, and its error named beside it.
 */
export function removeLeftoverExports(
  folders: readonly string[],
  known: readonly string[],
): { removed: string[]; failed: { path: string; error: string }[] } {
  const candidates = new Set<string>(known.filter((path) => isPartialName(basename(path))));
  for (const folder of folders) {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      continue; // No exports folder yet (or unreadable): nothing of ours in it to remove.
    }
    for (const name of names) if (isPartialName(name)) candidates.add(join(folder, name));
  }
  const removed: string[] = [];
  const failed: { path: string; error: string }[] = [];
  for (const path of [...candidates].sort()) {
    try {
      if (!lstatSync(path).isFile()) continue;
      rmSync(path);
      removed.push(path);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') failed.push({ path, error: code ?? String(error) });
    }
  }
  return { removed, failed };
}

function isPartialName(name: string): boolean {
  return PARTIAL_EXPORT_NAME.test(name);
}
