import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../shared/book/flags';
import type { BookPage, BookSummary } from '../../../shared/book/views';
import { BookStore } from '../../../renderer/src/book/book.svelte';
import { PROFILE, deferred, fakeApi } from './fake-api';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe("the book's first read", () => {
  it('is not asked for again by the table drawn while it is on its way', async () => {
    const fake = fakeApi({
      'book.rows': () => ({ offset: 0, rows: [], total: 0 }) satisfies BookPage,
    });
    const store = new BookStore(fake.api, PROFILE);
    const summary = deferred<BookSummary>();
    const page = deferred<BookPage>();
    store.useFirstRead({ summary: summary.promise, page: page.promise });
    const opened = store.open();
    // The table shows its first rows before the answer came, and the scrolling settles.
    store.show(0, 30);
    await vi.advanceTimersByTimeAsync(500);
    expect(fake.channels()).toEqual([]);

    summary.resolve({
      counts: { strategies: 3 * BOOK_PAGE, flagged: 0, byFlag: {} },
      refresh: null,
      add: null,
      settings: null,
    } as unknown as BookSummary);
    page.resolve({ offset: 0, rows: [], total: 3 * BOOK_PAGE } as BookPage);
    await opened;
    expect(store.total).toBe(3 * BOOK_PAGE);
    expect(fake.channels()).toEqual([]);
    // Pages past the first are read as before.
    store.show(BOOK_PAGE, BOOK_PAGE + 30);
    await vi.advanceTimersByTimeAsync(500);
    expect(fake.calls).toEqual([
      {
        channel: 'book.rows',
        input: { profileId: PROFILE, query: WHOLE_BOOK, offset: BOOK_PAGE, limit: BOOK_PAGE },
      },
    ]);
  });
});
