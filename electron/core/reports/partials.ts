import type { DeskLog } from '../log/logger';
import type { Store } from '../store';
import { removeLeftoverExports } from './leftovers';
import type { PartialFiles } from './write';

/** Where the temporary files of exports under way are listed (a JSON list of paths). */
const KEY = 'exports.partial';

export interface PartialExports extends PartialFiles {
  /**
   * At start: removes the temporary files a killed export left, in `folders` (where the app
   * exports by default) and wherever the list names one; then the list starts afresh.
   */
  removeLeftovers(folders: readonly string[]): ReturnType<typeof removeLeftoverExports>;
}

/**
 * The temporary files of exports under way, kept in the database: written before each is
 * created and forgotten once it is gone, so one a crash left in a folder chosen by hand is
 * known at the next start.
 */
export function partialExports(settings: Store['settings']): PartialExports {
  const read = (): string[] => {
    const text = settings.get(KEY);
    if (text === null) return [];
    try {
      const list: unknown = JSON.parse(text);
      return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
    } catch {
      return [];
    }
  };
  const write = (list: string[]) =>
    list.length > 0 ? settings.set(KEY, JSON.stringify(list)) : settings.delete(KEY);
  return {
    begin(path) {
      write([...read().filter((p) => p !== path), path]);
    },
    end(path) {
      write(read().filter((p) => p !== path));
    },
    removeLeftovers(folders) {
      const result = removeLeftoverExports(folders, read());
      // What could not be removed stays listed, to be tried again at the next start.
      write(result.failed.map((f) => f.path));
      return result;
    },
  };
}

/**
 * At start: the hidden temporary files unfinished exports left (a killed process) are removed
 * from `folders` and wherever the list names one; the log says what went and what stayed.
 */
export function removeUnfinishedExports(
  partial: PartialExports,
  folders: readonly string[],
  log: Pick<DeskLog, 'info' | 'warn'>,
): void {
  const leftovers = partial.removeLeftovers(folders);
  if (leftovers.removed.length > 0)
    log.info('Removed what unfinished exports left', { files: leftovers.removed });
  if (leftovers.failed.length > 0)
    log.warn('What unfinished exports left could not be removed', { files: leftovers.failed });
}
