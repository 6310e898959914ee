import { z } from 'zod';
import { exportIdField, exportResult, method, profileRef, strategyRef } from '../contract-parts';
import { timestamp, uuid } from '../domain/resources';
import { RESTRICTION_KINDS } from './rules';

/**
 * Restrictions (docs/restrictions.md): do-not-buy, do-not-sell and hold symbols of a profile,
 * for one strategy, a tag or the whole profile, checked in drafts, batch reviews and the
 * confirmation, enforced where every execution is armed, and checked again against the real
 * orders once a rebalance ends.
 */

export const restrictionKind = z.enum(RESTRICTION_KINDS);

export const restrictionScope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('profile') }).strict(),
  z.object({ type: z.literal('strategy'), strategyId: uuid }).strict(),
  z
    .object({ type: z.literal('tag'), tag: z.string().trim().min(1, 'Name the tag').max(100) })
    .strict(),
]);

export const restrictionView = z.object({
  id: uuid,
  kind: restrictionKind,
  symbol: z.string(),
  scope: restrictionScope,
  reason: z.string(),
  setBy: z.string(),
  from: timestamp,
  until: timestamp.nullable(),
  /** In force now, not yet, or no longer (ended, or its `until` passed). */
  state: z.enum(['in-force', 'upcoming', 'over']),
});
export type RestrictionView = z.infer<typeof restrictionView>;

export const violationView = z.object({
  symbol: z.string(),
  level: z.enum(['certain', 'possible']),
  message: z.string(),
  restrictionIds: z.array(uuid),
});
export type ViolationView = z.infer<typeof violationView>;

/**
 * What executing despite violations takes: each symbol named (a certain violation is refused
 * unless named) and a note saying why (a possible one too). Kept in the execution's activity entry.
 */
export const restrictionOverride = z
  .object({
    symbols: z.array(z.string().trim().min(1).max(64)).min(1).max(1000),
    note: z.string().trim().min(1, 'Say why the restriction is overridden').max(500),
  })
  .strict();
export type RestrictionOverrideInput = z.infer<typeof restrictionOverride>;

/** A real order of an ended rebalance that the list in force when it was sent forbids. */
export const restrictionFinding = z.object({
  versionId: uuid,
  orderId: z.string(),
  symbol: z.string(),
  side: z.enum(['BUY', 'SELL']),
  orderStatus: z.string(),
  quantity: z.string(),
  restrictionId: uuid,
  restrictionKind: restrictionKind,
  /** The execution named the symbol in its override. */
  overridden: z.boolean(),
  message: z.string(),
  foundAt: timestamp,
});
export type RestrictionFindingView = z.infer<typeof restrictionFinding>;

const symbolInput = z.string().trim().min(1, 'Enter the symbol').max(64);
const reasonInput = z.string().trim().min(1, 'Give the reason').max(500);
const setByInput = z.string().trim().min(1, 'Say who sets it').max(100);

export const restrictionsContract = {
  /** The profile's restrictions, every one ever set (ended ones too), by symbol then start. */
  list: method(profileRef, z.array(restrictionView)),
  add: method(
    z
      .object({
        profileId: uuid,
        kind: restrictionKind,
        symbol: symbolInput,
        scope: restrictionScope,
        reason: reasonInput,
        setBy: setByInput,
        /** Default: now. */
        from: timestamp.optional(),
        until: timestamp.nullable().optional(),
      })
      .strict(),
    restrictionView,
  ),
  /** Ends a restriction now (it stays listed, no longer in force). */
  end: method(z.object({ profileId: uuid, restrictionId: uuid }).strict(), restrictionView),
  /**
   * The rules in force now for a strategy, and the symbols it holds as last read: what the
   * draft editor checks its rows against as the manager types.
   */
  inForce: method(
    strategyRef,
    z.object({
      rules: z.array(restrictionView),
      held: z.array(z.string()),
      listHash: z.string(),
    }),
  ),
  /** A draft's rows against the rules in force and the holdings as last read (the confirmation). */
  checkDraft: method(
    z.object({ draftId: uuid }).strict(),
    z.object({ violations: z.array(violationView), listHash: z.string() }),
  ),
  /** Every restriction as CSV (the app's one export). */
  exportCsv: method(
    z.object({ profileId: uuid, ...exportIdField }).strict(),
    exportResult.nullable(),
  ),
  /**
   * Adds every row of a CSV text (the columns of the export), or none: a row that cannot be
   * read refuses the whole file (kind invalid-input, naming the row and the column).
   */
  importCsv: method(
    z.object({ profileId: uuid, text: z.string().max(1_100_000), setBy: setByInput }).strict(),
    z.object({ added: z.number().int().nonnegative() }),
  ),
  /** The restricted orders found when the version's rebalance ended. */
  findings: method(
    z.object({ profileId: uuid, versionId: uuid }).strict(),
    z.array(restrictionFinding),
  ),
};
