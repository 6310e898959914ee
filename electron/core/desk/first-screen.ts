import type { DeskHandlers } from '../../../shared/contract';
import { BOOK_PAGE, WHOLE_BOOK } from '../../../shared/book/first-page';

type FirstScreen = DeskHandlers['app']['firstScreen'];

/**
 * `app.firstScreen`: the profiles and the first screen's book in one answer, read by the same
 * handlers that answer `profiles.list`, `book.summary` and `book.rows` (so each part is exactly
 * what those calls give). Like them it reads none of the cache's history (versions, orders,
 * activity): only the profiles, the book's derived rows and their counts.
 */
export function firstScreenHandler(handlers: Pick<DeskHandlers, 'profiles' | 'book'>): FirstScreen {
  return async ({ profileId }) => {
    const profiles = await handlers.profiles.list({});
    const opened = profiles.find((p) => p.id === profileId) ?? profiles[0];
    if (!opened) return { profiles, book: null };
    const [summary, page] = await Promise.all([
      handlers.book.summary({ profileId: opened.id }),
      handlers.book.rows({ profileId: opened.id, query: WHOLE_BOOK, offset: 0, limit: BOOK_PAGE }),
    ]);
    return { profiles, book: { profileId: opened.id, summary, page } };
  };
}
