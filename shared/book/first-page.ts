import type { BookFlag, BookSort } from './flags';

/** The whole book, by name: the query a book opens with. */
export const WHOLE_BOOK = {
  search: '',
  flags: [] as BookFlag[],
  tag: null as string | null,
  sort: 'name' as BookSort,
  descending: false,
};

/** Rows a screen of the book asks for at a time (well under the contract's 500). */
export const BOOK_PAGE = 100;
