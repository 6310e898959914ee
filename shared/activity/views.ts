import { z } from 'zod';
import { timestamp, uuid } from '../domain/resources';
import { ACTIVITY_KINDS } from './kinds';

/**
 * The activity log as the contract carries it. Each profile has one append-only chain: entry n
 * carries the SHA-256 of entry n-1 (docs/activity.md). Never a secret, never a token.
 */

export const activityKind = z.enum(ACTIVITY_KINDS);

/** A calendar day, `YYYY-MM-DD`, in UTC. */
export const activityDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a day as YYYY-MM-DD');

/**
 * One line of the Activity view. Its fields are as loose as an edited file may make them (any
 * number, any text, a kind the app never writes): the view still shows such an entry, and the
 * chain check names it.
 */
export const activityEntrySummary = z.object({
  /** The entry's place in the whole log (newest is highest): the view's total order. */
  seq: z.number().int(),
  /** Its place in its profile's chain, from 1 with no gaps. */
  chainIndex: z.number().int(),
  at: z.string(),
  kind: z.string(),
  profileId: uuid,
  /** As named when the entry was written (the profile may be gone since). */
  profileName: z.string(),
  strategyId: z.string().nullable(),
  /** The strategy's name as the entry (or the execution it answers) recorded it: kept after removal. */
  strategyName: z.string().nullable(),
  versionId: z.string().nullable(),
  /** One readable line: what was done, and to what. */
  summary: z.string(),
  /** What came of it, when known ("Accepted as pending", "Refused: 422 …", "Completed: 12 filled"). */
  outcome: z.string().nullable(),
});
export type ActivityEntrySummary = z.infer<typeof activityEntrySummary>;

/** A label and its value, as the details show them. */
export const activityFact = z.object({ label: z.string(), value: z.string() });

/** A body shown as a table (the positions sent, the prediction, the orders at the end). */
export const activityTable = z.object({
  title: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.string())),
});

export const activityEntryDetail = activityEntrySummary.extend({
  facts: z.array(activityFact),
  tables: z.array(activityTable),
  /** Entries that refer to this one (the answer and the end of an execution), oldest first. */
  linked: z.array(activityEntrySummary),
  /** The entry this one refers to (an answer's execution), if any. */
  refersTo: activityEntrySummary.nullable(),
  /** The batch a batch entry is about, while the app still has it (the entry links to it). */
  batchId: uuid.nullable(),
  previousHash: z.string(),
  hash: z.string(),
});
export type ActivityEntryDetail = z.infer<typeof activityEntryDetail>;

export const activityFilter = z
  .object({
    profileId: uuid,
    /** Only this strategy's entries; all of the profile's when absent. */
    strategyId: uuid.optional(),
    kinds: z.array(activityKind).max(ACTIVITY_KINDS.length).optional(),
    /** Inclusive days, UTC. */
    from: activityDay.optional(),
    to: activityDay.optional(),
  })
  .strict();
export type ActivityFilter = z.infer<typeof activityFilter>;

export const activityPage = z.object({
  /** How many entries match the filter. */
  total: z.number().int().nonnegative(),
  /** Newest first, from `offset`. */
  entries: z.array(activityEntrySummary),
});
export type ActivityPage = z.infer<typeof activityPage>;

/** The log of a profile removed from the app: its entries stay, to be read and exported. */
export const removedProfileLog = z.object({
  profileId: uuid,
  /** The name its last entry recorded. */
  profileName: z.string(),
  entries: z.number().int().positive(),
  /** When it was removed (its profile-removed entry), or null when no such entry is there. */
  removedAt: z.string().nullable(),
});
export type RemovedProfileLog = z.infer<typeof removedProfileLog>;

/** The result of walking the chains: where the first break is, said plainly. */
export const activityCheck = z.object({
  checkedAt: timestamp,
  entries: z.number().int().nonnegative(),
  ok: z.boolean(),
  /** The first entry whose content or link does not match (null when the chains hold). */
  brokenAt: z
    .object({
      // As the edited file holds them: any whole number, any text.
      seq: z.number().int(),
      profileId: z.string(),
      chainIndex: z.number().int().positive(),
      at: z.string(),
      reason: z.string(),
    })
    .nullable(),
});
export type ActivityCheck = z.infer<typeof activityCheck>;
