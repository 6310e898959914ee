import { randomUUID } from 'node:crypto';
import type { DeskEventOf } from '../../../shared/contract';
import { DeskError } from '../../../shared/errors';
import type { ExportResult } from '../../../shared/views';
import { writeOrderReportLines, type PartialFiles } from '../reports';

/**
 * The one way the app writes an export (order reports, the activity log, the book, a batch, a
 * model): the host chooses the path (a save dialog, or an unused name in the exports folder), the
 * export gets its id (the caller's, so its progress is known as it comes), its rows go to a hidden
 * temporary file listed in the leftover registry (reports/partials.ts) and renamed into place
 * once whole (reports/write.ts), and `export-progress` events carry that id. A killed export
 * leaves no file under the chosen name; its temporary file is removed at the next start.
 */

/** Where an export goes: the desktop shell asks with a save dialog; null means cancelled. */
export type ChooseExportPath = (suggestedName: string) => Promise<string | null>;

/** One export's file: its name, header, and rows produced once the path is chosen. */
export interface ExportFile {
  /** The name the save dialog offers. */
  name: string;
  /** The file's first line(s), line ends included. */
  header: string;
  /**
   * The rows, read from the store only once the path is chosen, in the writer's form
   * (reports/write.ts): a line led by a NUL is written as it is after the NUL.
   */
  lines(): Iterable<string>;
}

export interface Exports {
  /** Writes `file` where the host chooses; null when the manager cancelled the choice. */
  write(file: ExportFile, exportId?: string): Promise<ExportResult | null>;
}

export interface ExportServices {
  choosePath: ChooseExportPath;
  /** The leftover registry: each temporary file is listed while it exists. */
  partial: PartialFiles;
  /** Tells each export's progress (the desk's event hub: core does not import desk/). */
  emit: (event: DeskEventOf<'export-progress'>) => void;
}

/** A CSV line in the writer's form: written as it is. */
export const formattedLine = (line: string): string => `\0${line}`;

export function exportsOf({ choosePath, partial, emit }: ExportServices): Exports {
  const running = new Set<string>();
  return {
    async write(file, exportId = randomUUID()) {
      if (running.has(exportId))
        throw new DeskError({
          kind: 'invalid-input',
          message: `An export with the id ${exportId} is already under way; give each export its own id.`,
        });
      running.add(exportId);
      try {
        const path = await choosePath(file.name);
        if (path === null) return null;
        const written = await writeOrderReportLines(file.lines(), path, {
          header: file.header,
          partial,
          onProgress: (rows) => emit({ type: 'export-progress', exportId, rows, done: false }),
        });
        emit({ type: 'export-progress', exportId, rows: written.rows, done: true });
        return { exportId, path: written.path, rows: written.rows, bytes: written.bytes };
      } finally {
        running.delete(exportId);
      }
    },
  };
}
