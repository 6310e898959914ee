import type { DeskHandlers } from '../../../shared/contract';
import { ADD_OUTCOME_TEXT } from '../../../shared/book/add-outcomes';
import type { BookQuery } from '../../../shared/book/views';
import { BOOK_CSV, HOLDINGS_CSV, type Book, type BookCsv } from '../book';
import type { Exports } from '../exports';
import { selectionModelsOf } from '../book/models';
import { tsvTextCell } from '../csv/cell';
import { orderOf } from '../book/queries';
import type { Store } from '../store';

export interface BookHandlerDeps {
  store: Store;
  book: Book;
  exports: Exports;
  now(): string;
}

/** The book's contract handlers (the book itself lives in electron/core/book). */
export function bookHandlers({ store, book, exports, now }: BookHandlerDeps): DeskHandlers['book'] {
  /** Writes one of the book's exports where the host chooses, with progress events. */
  function exportCsv(
    profileId: string,
    query: BookQuery,
    name: string,
    file: BookCsv,
    exportId: string | undefined,
  ) {
    const day = now().slice(0, 10);
    return exports.write(
      {
        name: `${name}-${day}.csv`,
        header: file.header,
        lines: () => {
          // The rows as the book shows them once the path is chosen: worked out again where the
          // cache changed.
          const filter = book.queries.filter(profileId, query);
          return file.lines(store, filter, orderOf(query));
        },
      },
      exportId,
    );
  }

  return {
    async summary({ profileId }) {
      return book.summary(profileId);
    },
    async rows({ profileId, query, offset, limit }) {
      return book.queries.page(profileId, query, offset, limit);
    },
    async changeTags({ profileId, selection, add, remove }) {
      return book.queries.changeTags(profileId, selection, add, remove);
    },
    async selectionModels({ profileId, selection }) {
      return selectionModelsOf(store, profileId, book.queries.selected(profileId, selection));
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
        // The screen's words: its column names and each outcome as the table shows it.
        'Line\tValue\tOutcome\tDetail',
        ...lines.map(
          (l) => `${l.line}\t${cell(l.text)}\t${ADD_OUTCOME_TEXT[l.outcome]}\t${cell(l.detail)}`,
        ),
      ].join('\n');
      return { text: `${text}\n` };
    },
    async exposure({ profileId, symbol }) {
      return book.queries.exposure(profileId, symbol);
    },
    exportStrategies: ({ profileId, query, exportId }) =>
      exportCsv(profileId, query, 'book', BOOK_CSV, exportId),
    exportHoldings: ({ profileId, query, exportId }) =>
      exportCsv(profileId, query, 'book-holdings', HOLDINGS_CSV, exportId),
    async settings() {
      return book.settings();
    },
    async saveSettings(patch) {
      return book.saveSettings(patch);
    },
  };
}
