import { z } from 'zod';
import { method, none, ok, profileRef } from '../contract-parts';
import { uuid } from '../domain/resources';
import { exportIdField, exportResult } from '../views';
import { MAX_PASTE_CHARACTERS } from './flags';
import {
  addOutcomeLine,
  bookCounts,
  bookJob,
  bookPage,
  bookQuery,
  bookRow,
  bookSelection,
  bookSettings,
  bookSort,
  bookSummary,
  exposureView,
  selectionModels,
  tagChange,
} from './views';

/** The book's area of the contract (shared/contract.ts): its channels, each with its schemas. */

export const bookContract = {
  /** The whole book's counts per flag and tag, the reads under way, the settings. */
  summary: method(profileRef, bookSummary),
  /** A window of the book as filtered and sorted (the table asks for the rows it shows). */
  rows: method(
    z
      .object({
        profileId: uuid,
        query: bookQuery,
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(500),
      })
      .strict(),
    bookPage,
  ),
  changeTags: method(
    z.object({ profileId: uuid, selection: bookSelection }).extend(tagChange.shape).strict(),
    z.object({ changed: z.number().int().nonnegative(), counts: bookCounts }),
  ),
  /**
   * The selected strategies and the model revision each follows ("Assign model…" and "Review
   * with its model…" act on them).
   */
  selectionModels: method(
    z.object({ profileId: uuid, selection: bookSelection }).strict(),
    selectionModels,
  ),
  /** Reads the selected strategies again through the profile's queue; progress comes as events. */
  refresh: method(z.object({ profileId: uuid, selection: bookSelection }).strict(), bookJob),
  cancelRefresh: method(profileRef, ok),
  /** Adds every id of a pasted list not in the app yet; each line gets its outcome. */
  addMany: method(
    z
      .object({
        profileId: uuid,
        text: z
          .string()
          .max(
            MAX_PASTE_CHARACTERS,
            `The list is longer than ${MAX_PASTE_CHARACTERS.toLocaleString('en-US')} characters: add it in parts`,
          ),
      })
      .strict(),
    bookJob,
  ),
  cancelAdd: method(profileRef, ok),
  /** A window of the last add's lines with their outcomes. */
  addOutcomes: method(
    z
      .object({
        profileId: uuid,
        jobId: uuid,
        offset: z.number().int().nonnegative(),
        limit: z.number().int().positive().max(500),
      })
      .strict(),
    z.object({ total: z.number().int().nonnegative(), lines: z.array(addOutcomeLine) }),
  ),
  /** The last add's lines and outcomes as tab-separated text, to copy. */
  copyOutcomes: method(
    z.object({ profileId: uuid, jobId: uuid }).strict(),
    z.object({ text: z.string() }),
  ),
  /** Who holds a symbol and who targets it. */
  exposure: method(
    z.object({ profileId: uuid, symbol: z.string().trim().min(1).max(64) }).strict(),
    exposureView,
  ),
  /** The book as filtered, one row per strategy, as CSV; the host chooses where. */
  exportStrategies: method(
    z.object({ profileId: uuid, query: bookQuery, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
  /** One row per holding of the book as filtered, with its known target weight, as CSV. */
  exportHoldings: method(
    z.object({ profileId: uuid, query: bookQuery, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
  settings: method(none, bookSettings),
  saveSettings: method(bookSettings.partial().strict(), bookSettings),
} as const;

export const bookEvents = [
  /**
   * The book's rows moved (a refresh's reads, a rebalance, the journal): those rows as the book
   * shows them now, its counts, and the sorts under which any of them may have changed place (in
   * BOOK_SORTS' order); a screen in another order replaces the rows in hand and reads nothing.
   */
  z.object({
    type: z.literal('book-rows-changed'),
    profileId: uuid,
    rows: z.array(bookRow),
    counts: bookCounts,
    placesMoved: z.array(bookSort),
  }),
  /** A refresh or an add of the book moved on (progress, a pause for a 429, its end). */
  z.object({ type: z.literal('book-job-changed'), profileId: uuid, job: bookJob }),
] as const;
