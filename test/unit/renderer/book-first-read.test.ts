import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../shared/book/flags';
import type { BookPage, BookSummary } from '../../../shared/book/views';
import { BookStore } from '../../../renderer/src/book/book.svelte';
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

describe("a profile's first screen", () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  const opening = () => {
    const page = deferred<BookPage>();
    const desk = fakeApi({
      'profiles.list': () => [{ id: PROFILE, name: 'Book', environment: 'sandbox' }],
      'app.status': () => appStatus(),
      'book.summary': () => new Promise(() => undefined),
      'book.rows': () => page.promise,
      'strategies.list': () => [strategyLine()],
    });
    return { desk, page, session: new DeskSession(desk.api) };
  };

  it("reads the sidebar's strategies once the book's first rows are in", async () => {
    const { desk, page, session } = opening();
    const start = session.start();
    await vi.advanceTimersByTimeAsync(100);
    expect(desk.channels()).toContain('book.rows');
    expect(desk.channels()).not.toContain('strategies.list');
    page.resolve({ offset: 0, rows: [], total: 0 } as BookPage);
    await start;
    expect(desk.channels()).toContain('strategies.list');
    expect(session.strategies.list).toHaveLength(1);
  });

  it('reads them at once when a strategy was open (it, not the book, is the first screen)', async () => {
    const { desk, session } = opening();
    localStorage.setItem('strategy-desk.profile', PROFILE);
    localStorage.setItem(`strategy-desk.strategy.${PROFILE}`, STRATEGY);
    await session.start();
    expect(desk.channels()).toContain('strategies.list');
    expect(session.strategies.selectedId).toBe(STRATEGY);
  });
});
