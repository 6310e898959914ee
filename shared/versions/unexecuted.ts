import { z } from 'zod';
import { decimalString, positionAction, timestamp, uuid, versionStatus } from '../domain/resources';
import { deskErrorWire } from '../errors/wire';

/**
 * What the app shows before an unexecuted version is deleted (`versions.prepareDelete`): the
 * version as read from the service just now, how it differs from the draft about to replace it,
 * and the key `versions.delete` needs to name what was shown. The desk deletes nothing unseen:
 * a version it could not read is deleted only on the manager's explicit acknowledgement.
 */

/** A version's content as read: its positions with old and new weights and actions. */
export const versionContentView = z.object({
  id: uuid,
  status: versionStatus.nullable(),
  cashWeight: decimalString,
  oldCashWeight: decimalString,
  scheduledFor: timestamp.nullable(),
  executedAt: timestamp.nullable(),
  insertedAt: timestamp,
  positions: z.array(
    z.object({
      symbol: z.string(),
      oldWeight: decimalString,
      weight: decimalString,
      action: positionAction,
    }),
  ),
});
export type VersionContentView = z.infer<typeof versionContentView>;

/** One symbol in the version or the draft: the weight each would make the target. */
export const draftComparisonRow = z.object({
  symbol: z.string(),
  /** The version's new weight ("0" when it drops the symbol or does not name it). */
  versionWeight: decimalString,
  /** The weight executing the draft sends ("0" when it removes the symbol or does not name it). */
  draftWeight: decimalString,
  /** The version's own action for the symbol; null when it does not name it. */
  versionAction: positionAction.nullable(),
  difference: z.enum(['only-version', 'only-draft', 'weights-differ', 'same']),
});
export type DraftComparisonRow = z.infer<typeof draftComparisonRow>;

/** How the unexecuted version differs from the draft that would replace it. */
export const draftComparison = z.object({
  draftId: uuid,
  draftName: z.string(),
  /** Symbols where they differ first (in the version's order, then the draft's), then the rest. */
  rows: z.array(draftComparisonRow),
  cash: z.object({ version: decimalString, draft: decimalString }),
});
export type DraftComparison = z.infer<typeof draftComparison>;

/** The copy kept in this app's history, with when it was read. */
export const lastKnownCopy = versionContentView.extend({ syncedAt: timestamp });

const shown = {
  versionId: uuid,
  strategyId: uuid,
  strategyName: z.string(),
  /** When the app asked the service. */
  readAt: timestamp,
};

export const deletePreview = z.discriminatedUnion('state', [
  /** Read just now: what it holds, and the key that names exactly this content. */
  z.object({
    ...shown,
    state: z.literal('read'),
    confirmationKey: z.string(),
    content: versionContentView,
    /** Null without a draft (Versions → Delete), or when the draft cannot be compared. */
    comparison: draftComparison.nullable(),
  }),
  /** The read failed: deleting it needs the manager's acknowledgement that it is unseen. */
  z.object({
    ...shown,
    state: z.literal('unreadable'),
    confirmationKey: z.string(),
    error: deskErrorWire,
    lastKnown: lastKnownCopy.nullable(),
  }),
  /** The service no longer knows it: nothing is in the way (the key removes the copy here). */
  z.object({
    ...shown,
    state: z.literal('gone'),
    confirmationKey: z.string(),
    lastKnown: lastKnownCopy.nullable(),
  }),
  /** It was executed meanwhile: not in the way, and it cannot be deleted. */
  z.object({ ...shown, state: z.literal('executed'), content: versionContentView }),
]);
export type DeletePreview = z.infer<typeof deletePreview>;

/** What `versions.delete` carries: the key of what was shown, and for an unread version the word. */
export const deleteConfirmation = z
  .object({
    key: z.string().min(1).max(100),
    /** The version could not be read: the manager deletes it knowingly unseen. */
    unreadAcknowledged: z.boolean().optional(),
  })
  .strict();
export type DeleteConfirmation = z.infer<typeof deleteConfirmation>;
