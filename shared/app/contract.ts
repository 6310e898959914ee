import { z } from 'zod';
import { method, none } from '../contract-parts';
import { uuid } from '../domain/resources';
import { bookPage, bookSummary } from '../book/views';
import { appStatus, profileView } from '../views';

/** The app as a whole: the status bar's figures, the first screen. */
export const appContract = {
  status: method(none, appStatus),
  /**
   * What the app opens on, in one call (its first screen waits for one answer, not two in a
   * row): the profiles as `profiles.list` gives them, and the book of the profile it opens
   * with, its summary and first page as `book.summary` and `book.rows` give them (the whole
   * book from the top, BOOK_PAGE rows); null without a profile. It opens with the profile
   * the page remembers (`profileId`, as the page kept it: ignored unless it is a profile's),
   * else the first.
   */
  firstScreen: method(
    z.object({ profileId: z.string().max(100).nullable() }).strict(),
    z.object({
      profiles: z.array(profileView),
      book: z.object({ profileId: uuid, summary: bookSummary, page: bookPage }).nullable(),
    }),
  ),
};

export const appEvents = [
  /** A command chosen in the desktop app's native menu (File › Export CSV…). */
  z.object({ type: z.literal('menu-command'), command: z.enum(['export-csv']) }),
] as const;
