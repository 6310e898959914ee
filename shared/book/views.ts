import { z } from 'zod';
import { decimalString, timestamp, uuid, versionStatus } from '../domain/resources';
import { BOOK_FLAGS, BOOK_SORTS, MAX_TAG_LENGTH, MAX_TAGS_PER_CHANGE } from './flags';

/**
 * The book as the contract carries it (docs/book.md): every strategy of a profile, each row read
 * from the service or derived exactly from what the app has seen. Never a price, never a guess.
 */

export const bookFlag = z.enum(BOOK_FLAGS);
export const bookSort = z.enum(BOOK_SORTS);

const tag = z
  .string()
  .trim()
  .min(1, 'A tag cannot be empty')
  .max(MAX_TAG_LENGTH, `A tag has at most ${MAX_TAG_LENGTH} characters`)
  // eslint-disable-next-line no-control-regex
  .regex(/^[^\u0000-\u001f\u007f]*$/, 'A tag cannot hold control characters');

/** What the book shows: a search, flags, a tag, and the order. */
export const bookQuery = z
  .object({
    /** Matches a name (any part), an id (its start) or a held symbol (its start). */
    search: z.string().max(200),
    /** Rows with any of these flags; empty: every row. */
    flags: z.array(bookFlag).max(BOOK_FLAGS.length),
    tag: tag.nullable(),
    sort: bookSort,
    descending: z.boolean(),
  })
  .strict();
export type BookQuery = z.infer<typeof bookQuery>;
export { WHOLE_BOOK } from './first-page';

/**
 * Which strategies an action of the book takes: all of them, chosen rows, those with a tag, or
 * those the book shows now (a query). Models and batches take the same selection.
 */
export const bookSelection = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('all') }).strict(),
  z.object({ kind: z.literal('ids'), strategyIds: z.array(uuid).min(1).max(10_000) }).strict(),
  z.object({ kind: z.literal('tag'), tag }).strict(),
  z.object({ kind: z.literal('query'), query: bookQuery }).strict(),
]);
export type BookSelection = z.infer<typeof bookSelection>;

/** Where the strategy's current target comes from, as the book states it. */
export const bookTargetSource = z.object({
  /** known: the latest executed version known here; changed-elsewhere: known, but the holdings do not fit it. */
  state: z.enum(['known', 'unknown', 'changed-elsewhere']),
  versionId: uuid.nullable(),
  executedAt: timestamp.nullable(),
  /** Held symbols the target does not explain, and targeted symbols not held. */
  symbols: z.array(z.string()),
});

/** The model a strategy follows and its sync state (null: it follows none). */
export const bookModel = z.object({
  id: uuid,
  name: z.string(),
  sync: z.enum([
    'in-sync',
    'out-of-sync',
    'target-unknown',
    'changed-elsewhere',
    'rebalance-failed',
  ]),
});

export const bookRow = z.object({
  strategyId: uuid,
  name: z.string(),
  tags: z.array(z.string()),
  model: bookModel.nullable(),
  target: bookTargetSource,
  holdingsCount: z.number().int().nonnegative(),
  /** The symbols held, sorted: each opens its exposure. */
  heldSymbols: z.array(z.string()),
  /** The latest executed version known here. */
  lastVersion: z
    .object({ id: uuid, status: versionStatus.nullable(), executedAt: timestamp.nullable() })
    .nullable(),
  /** A version of this strategy is rebalancing. */
  running: z.boolean(),
  liquidateOnlyReason: z.string().nullable(),
  flags: z.array(bookFlag),
  /** The last read that failed, when the flag is set. */
  refreshFailure: z
    .object({
      at: timestamp,
      kind: z.string(),
      message: z.string(),
      status: z.number().int().nullable(),
    })
    .nullable(),
  syncedAt: timestamp,
});
export type BookRow = z.infer<typeof bookRow>;

export const bookPage = z.object({
  /** Rows matching the query. */
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
  rows: z.array(bookRow),
});
export type BookPage = z.infer<typeof bookPage>;

/** The whole book's counts: per flag, flagged at all, per tag. */
export const bookCounts = z.object({
  strategies: z.number().int().nonnegative(),
  flagged: z.number().int().nonnegative(),
  flags: z.record(bookFlag, z.number().int().nonnegative()),
  tags: z.array(z.object({ tag: z.string(), count: z.number().int().positive() })),
});
export type BookCounts = z.infer<typeof bookCounts>;

/** How each pasted line ended. */
export const addOutcome = z.enum([
  'added',
  'already-added',
  'not-found',
  'not-an-id',
  'duplicate',
  'header',
  'failed',
  'cancelled',
  'over-limit',
  /** Not read yet. */
  'waiting',
]);
export type AddOutcome = z.infer<typeof addOutcome>;

export const addOutcomeLine = z.object({
  /** The line's number in the pasted text, from 1. */
  line: z.number().int().positive(),
  /** The line's value as read (trimmed, unquoted; cut to 200 characters). */
  text: z.string(),
  strategyId: uuid.nullable(),
  outcome: addOutcome,
  /** The strategy's name once read; the reason of a failure; the first line of a duplicate. */
  detail: z.string().nullable(),
});
export type AddOutcomeLine = z.infer<typeof addOutcomeLine>;

/** A read of many strategies under way or ended (refresh, or add): progress with counts. */
export const bookJob = z.object({
  id: uuid,
  kind: z.enum(['refresh', 'add']),
  state: z.enum(['running', 'finished', 'cancelled']),
  /** Strategies to read. */
  total: z.number().int().nonnegative(),
  /** Read and stored, or refused (failed counts those that failed). */
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  inFlight: z.number().int().nonnegative(),
  /** The service asked to slow down: no read starts before this time. */
  waitingUntil: timestamp.nullable(),
  /** Reads running at once now (lowered after a 429, raised again as answers come). */
  concurrency: z.number().int().positive(),
  startedAt: timestamp,
  endedAt: timestamp.nullable(),
  /** For an add: the outcome of every line so far, counted. */
  outcomes: z.record(addOutcome, z.number().int().nonnegative()).nullable(),
  /** For an add: lines read from the paste (blank lines are not counted). */
  lines: z.number().int().nonnegative().nullable(),
});
export type BookJob = z.infer<typeof bookJob>;

export const bookSettings = z
  .object({
    /** Reads of one profile's strategies at once (1 to 16; 4 by default). */
    refreshConcurrency: z.number().int().min(1).max(16),
    /** Refresh the book every this many minutes while online; null: never (the default). */
    autoRefreshMinutes: z.number().int().min(5).max(1440).nullable(),
    /** A strategy not read for longer than this many hours is flagged (24 by default). */
    staleAfterHours: z.number().int().min(1).max(8760),
  })
  .strict();
export type BookSettings = z.infer<typeof bookSettings>;

export const bookSummary = z.object({
  counts: bookCounts,
  refresh: bookJob.nullable(),
  add: bookJob.nullable(),
  settings: bookSettings,
});
export type BookSummary = z.infer<typeof bookSummary>;

/** Who holds a symbol and who targets it, with exact totals. */
export const exposureView = z.object({
  symbol: z.string(),
  rows: z.array(
    z.object({
      strategyId: uuid,
      name: z.string(),
      /** The quantity held (summed over its holding lines), or null when not held. */
      quantity: decimalString.nullable(),
      /** The weight in the known target, or null when not targeted or the target is unknown. */
      targetWeight: decimalString.nullable(),
      targetState: z.enum(['known', 'unknown', 'changed-elsewhere']),
      syncedAt: timestamp,
    }),
  ),
  totalQuantity: decimalString,
  holders: z.number().int().nonnegative(),
  targeting: z.number().int().nonnegative(),
  /** Strategies whose target is unknown: they may target the symbol without the app knowing. */
  unknownTargets: z.number().int().nonnegative(),
});
export type ExposureView = z.infer<typeof exposureView>;

export const tagChange = z
  .object({
    add: z.array(tag).max(MAX_TAGS_PER_CHANGE),
    remove: z.array(tag).max(MAX_TAGS_PER_CHANGE),
  })
  .strict();

/** The strategies a book selection names, grouped by the model revision each follows. */
export const selectionModels = z.object({
  /** Every strategy of the selection, in the book's order. */
  strategyIds: z.array(uuid),
  /** Per model revision followed (the most followers first, then the model's name). */
  models: z.array(
    z.object({
      modelId: uuid,
      modelName: z.string(),
      revisionId: uuid,
      revisionNumber: z.number().int().positive(),
      strategyIds: z.array(uuid),
    }),
  ),
  /** The strategies of the selection that follow no model. */
  following: z.number().int().nonnegative(),
});
export type SelectionModels = z.infer<typeof selectionModels>;
