import { exportsOf, type ExportFile } from '../../electron/core/exports';
import { partialExports } from '../../electron/core/reports/partials';
import type { Store } from '../../electron/core/store';

/** Writes `file` to `path` by the app's one export, its temporary file listed in `store`. */
export async function exportTo(store: Store, path: string, file: ExportFile) {
  const written = await exportsOf({
    choosePath: async () => path,
    partial: partialExports(store.settings),
    emit: () => undefined,
  }).write(file);
  if (written === null) throw new Error('The export was not written');
  return written;
}
