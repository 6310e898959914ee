import type { BookQuery, BookSelection } from '../../../shared/book/views';
import { NO_CHOICE, choiceWith } from './book-rows';

/**
 * The rows the manager chose in the book: one by one (their ids), or every row the query shows
 * ("Choose all N shown", kept as the query itself so that 100,000 rows are never listed). What
 * "Refresh chosen", tagging and "Review with its model…" act on; nothing chosen means the whole
 * book.
 */
export class BookChoice {
  chosen = $state.raw<ReadonlySet<string>>(NO_CHOICE);
  chosenQuery = $state.raw<BookQuery | null>(null);

  constructor(
    /** The book's query as it stands (what "all shown" means now). */
    private readonly query: () => BookQuery,
    /** The rows the query shows, once known. */
    private readonly total: () => number | null,
  ) {}

  /** What the book's actions act on: the chosen rows, else the whole book. */
  get selection(): BookSelection {
    if (this.chosenQuery) return { kind: 'query', query: this.chosenQuery };
    if (this.chosen.size > 0) return { kind: 'ids', strategyIds: [...this.chosen] };
    return { kind: 'all' };
  }

  get count(): number {
    return this.chosenQuery ? (this.total() ?? 0) : this.chosen.size;
  }

  choose(strategyId: string, chosen: boolean): void {
    this.chosen = choiceWith(this.chosenQuery ? NO_CHOICE : this.chosen, strategyId, chosen);
    this.chosenQuery = null;
  }

  chooseAllShown(): void {
    this.chosen = NO_CHOICE;
    this.chosenQuery = this.query();
  }

  isChosen(strategyId: string): boolean {
    if (this.chosenQuery) return true;
    return this.chosen.has(strategyId);
  }

  clear(): void {
    this.chosen = NO_CHOICE;
    this.chosenQuery = null;
  }
}
