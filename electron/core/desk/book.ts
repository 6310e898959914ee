import { randomUUID } from 'node:crypto';
import type { DeskHandlers } from '../../../shared/contract';
import type { BookQuery } from '../../../shared/book/views';
import { writeBookCsv, writeHoldingsCsv, type Book } from '../book';
import { selectionModelsOf } from '../book/models';
import { tsvTextCell } from '../csv/cell';
import { readBookSettings, staleBefore } from '../book/settings';
import { filterOf, orderOf } from '../book/view';
import type { Store } from '../store';
import type { Emit } from './events';
import type { ChooseExportPath } from './reports';

export interface BookHandlerDeps {
  store: Store;
  book: Book;
  emit: Emit;
  choosePath: ChooseExportPath;
  now(): string;
}

/** The book's contract handlers (the book itself lives in electron/core/book). */
export function bookHandlers({
  store,
  book,
  emit,
  choosePath,
  now,
}: BookHandlerDeps): DeskHandlers['book'] {
  /** Writes one of the book's exports where the host chooses, with progress events. */
  async function exportCsv(
    profileId: string,
    query: BookQuery,
    name: string,
    write: typeof writeBookCsv,
  ) {
    const path = await choosePath(`${name}-${now().slice(0, 10)}.csv`);
    if (path === null) return null;
    const exportId = randomUUID();
    // The rows as the book shows them now: worked out again where the cache changed.
    book.counts(profileId);
    const filter = filterOf(profileId, query, staleBefore(readBookSettings(store), now()));
    const written = await write(store, filter, orderOf(query), path, (rows) =>
      emit({ type: 'export-progress', exportId, rows, done: false }),
    );
    emit({ type: 'export-progress', exportId, rows: written.rows, done: true });
    return { exportId, path: written.path, rows: written.rows, bytes: written.bytes };
  }

  return {
    async summary({ profileId }) {
      return book.summary(profileId);
    },
    async rows({ profileId, query, offset, limit }) {
      return book.page(profileId, query, offset, limit);
    },
    async changeTags({ profileId, selection, add, remove }) {
      return book.changeTags(profileId, selection, add, remove);
    },
    async selectionModels({ profileId, selection }) {
      return selectionModelsOf(store, profileId, book.selected(profileId, selection));
    },
    async refresh({ profileId, selection }) {
      return book.refresh(profileId, selection);
    },
    async cancelRefresh({ profileId }) {
      await book.cancelRefresh(profileId);
      return { ok: true as const };
    },
    async addMany({ profileId, text }) {
      return book.addMany(profileId, text);
    },
    async cancelAdd({ profileId }) {
      await book.cancelAdd(profileId);
      return { ok: true as const };
    },
    async addOutcomes({ profileId, jobId, offset, limit }) {
      const lines = book.addOutcomes(profileId, jobId);
      return { total: lines.length, lines: lines.slice(offset, offset + limit) };
    },
    async copyOutcomes({ profileId, jobId }) {
      const lines = book.addOutcomes(profileId, jobId);
      // The service's names and the pasted values go to a spreadsheet: the CSV cell rule.
      const cell = (value: string | null) => tsvTextCell(value ?? '');
      const text = [
        'line\tvalue\toutcome\tdetail',
        ...lines.map((l) => `${l.line}\t${cell(l.text)}\t${l.outcome}\t${cell(l.detail)}`),
      ].join('\n');
      return { text: `${text}\n` };
    },
    async exposure({ profileId, symbol }) {
      return book.exposure(profileId, symbol);
    },
    exportStrategies: ({ profileId, query }) => exportCsv(profileId, query, 'book', writeBookCsv),
    exportHoldings: ({ profileId, query }) =>
      exportCsv(profileId, query, 'book-holdings', writeHoldingsCsv),
    async settings() {
      return book.settings();
    },
    async saveSettings(patch) {
      return book.saveSettings(patch);
    },
  };
}
