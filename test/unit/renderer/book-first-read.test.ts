import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../shared/book/first-page';
import type { BookPage, BookSummary } from '../../../shared/book/views';
import { BookStore } from '../../../renderer/src/book/book.svelte';
import { Listeners } from '../../../shared/listeners';
import { DeskSession } from '../../../renderer/src/lib/stores/session.svelte';
import {
  PROFILE,
  STRATEGY,
  appStatus,
  deferred,
  fakeApi,
  memoryStorage,
  strategyLine,
} from './fake-api';

beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
afterEach(() => vi.useRealTimers());

describe("the book's first read", () => {
  it('is not asked for again by the table drawn while it is on its way', async () => {
    const fake = fakeApi({
      'book.rows': () => ({ offset: 0, rows: [], total: 0 }) satisfies BookPage,
    });
    const store = new BookStore(fake.api, PROFILE, new Listeners());
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

describe("a profile's first screen", () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  const summary = {
    counts: { strategies: 1, flagged: 0, byFlag: {} },
    refresh: null,
    add: null,
    settings: null,
  } as unknown as BookSummary;
  const rows = { offset: 0, rows: [], total: 1 } as unknown as BookPage;
  const profile = { id: PROFILE, name: 'Book', environment: 'sandbox' };

  const opening = () => {
    const opened = deferred<{ profiles: unknown[]; book: unknown }>();
    const desk = fakeApi({
      'app.firstScreen': () => opened.promise,
      'app.status': () => appStatus(),
      'strategies.list': () => [strategyLine()],
    });
    const session = new DeskSession(desk.api);
    return {
      desk,
      session,
      /** The desk answers the first call with the profile and its book's first rows. */
      answer: () =>
        opened.resolve({ profiles: [profile], book: { profileId: PROFILE, summary, page: rows } }),
      /** The book's screen is drawn (its store made as BookView makes it). */
      showBook: () =>
        session.bookOf(PROFILE, () => new BookStore(desk.api, PROFILE, session.exportProgress)),
    };
  };

  it('opens with one call to the desk: the profiles and the book’s first rows come together', async () => {
    const { desk, session, answer, showBook } = opening();
    const start = session.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(desk.channels()).toEqual(['app.firstScreen']);
    answer();
    await vi.advanceTimersByTimeAsync(10);
    const book = showBook();
    await book.open();
    expect(book.counts?.strategies).toBe(1);
    expect(book.total).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    await start;
    // The book read no row, no count of its own, and the profiles were not listed apart.
    expect(desk.channels()).not.toContain('profiles.list');
    expect(desk.channels()).not.toContain('book.summary');
    expect(desk.channels()).not.toContain('book.rows');
    expect(desk.calls[0]!.input).toEqual({ profileId: null });
  });

  it('names the profile the page remembers', async () => {
    localStorage.setItem('strategy-desk.profile', PROFILE);
    const { desk, session, answer } = opening();
    const start = session.start();
    answer();
    await vi.advanceTimersByTimeAsync(2_000);
    await start;
    expect(desk.calls[0]).toEqual({ channel: 'app.firstScreen', input: { profileId: PROFILE } });
  });

  it("reads and draws the sidebar's strategies once the book has drawn its first rows", async () => {
    const { desk, session, answer, showBook } = opening();
    const start = session.start();
    answer();
    await vi.advanceTimersByTimeAsync(500);
    // Neither read nor drawn yet: reading them would hold the page as the rows are painted.
    expect(desk.channels()).not.toContain('strategies.list');
    expect(session.strategies.list).toEqual([]);
    void showBook().open();
    await vi.advanceTimersByTimeAsync(10);
    await start;
    expect(desk.channels()).toContain('strategies.list');
    expect(session.strategies.list).toHaveLength(1);
  });

  it('draws them a second after the rows came when the book does not draw them', async () => {
    const { session, answer } = opening();
    const start = session.start();
    answer();
    await vi.advanceTimersByTimeAsync(900);
    expect(session.strategies.list).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    await start;
    expect(session.strategies.list).toHaveLength(1);
  });

  it('reads them at once when a strategy was open (it, not the book, is the first screen)', async () => {
    const { desk, session, answer } = opening();
    localStorage.setItem('strategy-desk.profile', PROFILE);
    localStorage.setItem(`strategy-desk.strategy.${PROFILE}`, STRATEGY);
    const start = session.start();
    answer();
    await start;
    expect(desk.channels()).toContain('strategies.list');
    expect(session.strategies.selectedId).toBe(STRATEGY);
  });
});
