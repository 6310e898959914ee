import { BOOK_FLAGS, type BookFlag } from '../../../shared/book/flags';
import type { BookRow } from '../../../shared/book/views';
import { CRLF, csvCell, csvDecimalCell } from '../csv/cell';
import { formattedLine } from '../exports';
import type { BookFilter, BookOrder, BookRowRead, Store } from '../store';
import { modelsOf } from './queries';

/**
 * The book as CSV, by the order reports' rules: RFC 4180 (quotes, CRLF), UTF-8, a text cell that
 * a spreadsheet could take for a formula neutralized (the one rule of every CSV cell,
 * csv/cell.ts), and decimals exactly as received, checked on the way. Two files: one row per strategy with its
 * columns as the table shows them (its model and sync state too), flags and tags; and one row per holding with the known target's weight of its
 * symbol. Both stream: strategies are read a page at a time (each page whole, so a strategy is
 * never written half before and half after a refresh) and written by the app's one export
 * (core/exports: aside, then renamed into place).
 */

export const BOOK_CSV_COLUMNS = [
  'strategy_id',
  'name',
  'tags',
  'model_id',
  'model',
  'model_sync',
  'target_source',
  'target_version_id',
  'target_executed_at',
  'changed_symbols',
  'holdings_count',
  'held_symbols',
  'last_version_id',
  'last_version_status',
  'last_version_executed_at',
  'running',
  'liquidate_only_reason',
  'flags',
  ...BOOK_FLAGS.map((f) => `flag_${f.replace(/-/g, '_')}`),
  'refresh_failed_at',
  'refresh_failure',
  'synced_at',
] as const;

export const HOLDINGS_CSV_COLUMNS = [
  'strategy_id',
  'strategy_name',
  'symbol',
  'quantity',
  'target_weight',
  'target_source',
  'target_version_id',
] as const;

/** Strategies read from the store at a time. */
const PAGE = 200;

/** A decimal in a book export is not one the app can vouch for. */
export class BookExportCellError extends Error {
  constructor(
    readonly strategyId: string,
    readonly column: string,
    value: unknown,
  ) {
    super(
      `The ${column} of strategy ${strategyId} is ${JSON.stringify(value)}, not a plain decimal: the book was not exported.`,
    );
    this.name = 'BookExportCellError';
  }
}

const text = (value: string | null): string => csvCell(value);

function decimal(value: string | null, strategyId: string, column: string): string {
  if (value === null) return '';
  const cell = csvDecimalCell(value);
  if (cell === null) throw new BookExportCellError(strategyId, column, value);
  return cell;
}

const flagCell = (row: BookRowRead, flag: BookFlag) =>
  row.flags.includes(flag) ? 'true' : 'false';

type BookModel = NonNullable<BookRow['model']>;

function bookLine(row: BookRowRead, model: BookModel | undefined): string {
  const cells = [
    text(row.strategy_id),
    text(row.name),
    text(row.tags.join('; ')),
    text(model?.id ?? null),
    text(model?.name ?? null),
    text(model?.sync ?? null),
    text(row.target_state),
    text(row.target_version_id),
    text(row.target_executed_at),
    text(row.changed_symbols.join(' ')),
    csvCell(row.holdings_count),
    text(row.held_symbols.join(' ')),
    text(row.last_version_id),
    text(row.last_version_status),
    text(row.last_version_at),
    row.running ? 'true' : 'false',
    text(row.liquidate_only_reason),
    text(row.flags.join(' ')),
    ...BOOK_FLAGS.map((f) => flagCell(row, f)),
    text(row.failure?.at ?? null),
    text(row.failure?.message ?? null),
    text(row.synced_at),
  ];
  return cells.join(',') + CRLF;
}

/** The strategies of the filter, a page at a time, in the book's order. */
function* pages(store: Store, filter: BookFilter, order: BookOrder): Generator<BookRowRead[]> {
  const ids = store.book.ids(filter, order);
  for (let at = 0; at < ids.length; at += PAGE) {
    const chunk = ids.slice(at, at + PAGE);
    const byId = new Map(
      store.book.rows(filter.profileId, chunk, filter.staleBefore).map((r) => [r.strategy_id, r]),
    );
    // A strategy removed since the ids were read is left out.
    yield chunk.flatMap((id) => byId.get(id) ?? []);
  }
}

/** One of the book's CSV files: its header, and its lines for a filter and an order. */
export interface BookCsv {
  header: string;
  lines(store: Store, filter: BookFilter, order: BookOrder): Iterable<string>;
}

/** The book as filtered, one row per strategy, with the model each follows as the table shows it. */
export const BOOK_CSV: BookCsv = {
  header: BOOK_CSV_COLUMNS.join(',') + CRLF,
  *lines(store, filter, order) {
    for (const page of pages(store, filter, order)) {
      const models = modelsOf(
        store,
        filter.profileId,
        page.map((r) => r.strategy_id),
      );
      for (const row of page) yield formattedLine(bookLine(row, models.get(row.strategy_id)));
    }
  },
};

/** One row per holding of the book as filtered, with its known target's weight. */
export const HOLDINGS_CSV: BookCsv = {
  header: HOLDINGS_CSV_COLUMNS.join(',') + CRLF,
  lines: holdingLines,
};

function* holdingLines(store: Store, filter: BookFilter, order: BookOrder): Generator<string> {
  for (const page of pages(store, filter, order)) {
    const ids = page.map((r) => r.strategy_id);
    const holdings = new Map<string, { symbol: string; quantity: string }[]>();
    for (const h of store.book.holdingsOf(filter.profileId, ids)) {
      const list = holdings.get(h.strategy_id) ?? [];
      list.push(h);
      holdings.set(h.strategy_id, list);
    }
    const targets = new Map<string, string>();
    for (const t of store.book.targetsOf(filter.profileId, ids))
      targets.set(`${t.strategy_id}\n${t.symbol}`, t.weight);
    for (const row of page) {
      for (const h of holdings.get(row.strategy_id) ?? []) {
        const known = row.target_state !== 'unknown';
        // A held symbol the known target leaves out is targeted at 0.
        const weight = known ? (targets.get(`${row.strategy_id}\n${h.symbol}`) ?? '0') : null;
        const cells = [
          text(row.strategy_id),
          text(row.name),
          text(h.symbol),
          decimal(h.quantity, row.strategy_id, 'quantity'),
          decimal(weight, row.strategy_id, 'target_weight'),
          text(row.target_state),
          text(row.target_version_id),
        ];
        yield formattedLine(cells.join(',') + CRLF);
      }
    }
  }
}
