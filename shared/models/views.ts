import { z } from 'zod';
import { decimalString, timestamp, uuid } from '../domain/resources';
import type { SyncState } from './sync';

/**
 * Models as the contract carries them (zod; the renderer takes only the types). A model is
 * app-wide; its revisions are immutable; a strategy of a profile follows at most one model.
 */

/** A row of a revision: a symbol and its weight as saved (a decimal string, 0 to 98). */
export const modelRow = z.object({ symbol: z.string(), weight: decimalString });
export type ModelRow = z.infer<typeof modelRow>;

export const revisionSummary = z.object({
  id: uuid,
  modelId: uuid,
  /** 1 for the first revision of the model, then one more for each. */
  number: z.number().int().positive(),
  createdAt: timestamp,
  note: z.string(),
  /** SHA-256 (hex) of the canonical rows (docs/models.md). */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  rowCount: z.number().int().nonnegative(),
  /** The sum of the weights, exact; cash is 100 minus it. */
  total: decimalString,
  /** The team member who saved it, for a revision of a team's model; null for the desk's own. */
  savedBy: z.string().nullable(),
});
export type RevisionSummary = z.infer<typeof revisionSummary>;

export const revisionDetail = revisionSummary.extend({ rows: z.array(modelRow) });
export type RevisionDetail = z.infer<typeof revisionDetail>;

export const modelSummary = z.object({
  id: uuid,
  /**
   * Whose library: the team's (shared by its desks, kept in its team store and cached here) or
   * this desk's own (every profile without a team).
   */
  library: z.enum(['team', 'desk']),
  name: z.string(),
  description: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  /** The newest revision; null for a model created empty and never saved. */
  latest: revisionSummary.nullable(),
  revisionCount: z.number().int().nonnegative(),
  /** Strategies following it, over every profile. */
  followers: z.number().int().nonnegative(),
  /** Strategies of the profile asked following it (null: no profile was asked). */
  followersInProfile: z.number().int().nonnegative().nullable(),
});
export type ModelSummary = z.infer<typeof modelSummary>;

export const modelDetail = modelSummary.extend({
  /** Newest first. */
  revisions: z.array(revisionSummary),
  /** The latest revision's rows (empty when there is none). */
  rows: z.array(modelRow),
});
export type ModelDetail = z.infer<typeof modelDetail>;

const weightChange = z.object({ symbol: z.string(), from: decimalString, to: decimalString });
export const revisionComparison = z.object({
  from: revisionSummary,
  to: revisionSummary,
  added: z.array(weightChange),
  removed: z.array(weightChange),
  changed: z.array(weightChange),
  unchanged: z.number().int().nonnegative(),
});
export type RevisionComparison = z.infer<typeof revisionComparison>;

const syncDifference = z.object({
  symbol: z.string(),
  modelWeight: decimalString,
  targetWeight: decimalString,
});
export const syncState = z.discriminatedUnion('state', [
  z.object({ state: z.literal('in-sync') }),
  z.object({ state: z.literal('out-of-sync'), differences: z.array(syncDifference) }),
  z.object({ state: z.literal('target-unknown') }),
  z.object({
    state: z.literal('possibly-changed-elsewhere'),
    differences: z.array(syncDifference),
    why: z.object({
      heldNotInTarget: z.array(z.string()),
      targetNotHeld: z.array(z.string()),
      updatedAfter: z.boolean(),
    }),
  }),
  z.object({
    state: z.literal('rebalance-failed'),
    versionId: uuid,
    failedSymbols: z.array(z.string()),
  }),
]);
// The schema describes exactly the type the plain function answers.
syncState satisfies z.ZodType<SyncState>;

/** A strategy following a model: the revision it follows and how its known target compares. */
export const modelFollower = z.object({
  profileId: uuid,
  strategyId: uuid,
  strategyName: z.string(),
  modelId: uuid,
  modelName: z.string(),
  /** The revision followed: the pinned one, else the model's latest. */
  revision: revisionSummary,
  /** Pinned to that revision; otherwise it follows each new revision. */
  pinned: z.boolean(),
  assignedAt: timestamp,
  /** The known target's version, when one is known. */
  targetVersionId: uuid.nullable(),
  sync: syncState,
});
export type ModelFollower = z.infer<typeof modelFollower>;

/** How a model starts: empty (no revision yet), from a draft's rows, from a strategy's known target. */
export const modelStart = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('empty') }).strict(),
  z.object({ kind: z.literal('draft'), draftId: uuid }).strict(),
  z
    .object({
      kind: z.literal('strategy'),
      profileId: uuid,
      strategyId: uuid,
      /**
       * The manager starts from a known target the app flags "changed elsewhere" knowingly:
       * without it such a start is refused (`stale-not-acknowledged`), naming why.
       */
      acceptUncertain: z.boolean().optional(),
    })
    .strict(),
]);
export type ModelStart = z.infer<typeof modelStart>;

/** Rows read from a CSV file, with the problems the model's rules find in them. */
export const modelCsvImport = z.object({
  rows: z.array(z.object({ symbol: z.string(), weight: z.string() })),
  problems: z.array(z.string()),
  header: z.boolean(),
});
export type ModelCsvImport = z.infer<typeof modelCsvImport>;
