import type { DraftRowInput } from '../../../shared/draft';
import type { RestrictionOverrideInput } from '../../../shared/restrictions/contract';

/**
 * What one execution sends: a strategy's target rows, from a stored draft or from a batch (one
 * model's rows sent to many strategies). Both go through the same flow (execute.ts): the
 * confirmation's checks against what was reviewed, the journal with its Idempotency-Key and its
 * claim, the activity entry, the send, the answer, following the version.
 */
export interface ExecutionRequest {
  profileId: string;
  strategyId: string;
  /**
   * The target: each symbol's weight, the rest cash, under the draft's rules (0 to 98, the sum at
   * most 98). Every symbol of the known target or the holdings left out is sent at 0, as a
   * draft's are (shared/draft, predictExecution).
   */
  rows: readonly DraftRowInput[];
  origin: ExecutionOrigin;
  /**
   * What the manager was shown and agreed to (`prepareExecution` for a draft; a batch's review
   * for each of its strategies). With it, the strategy and the known target are read again
   * before sending and the plan must still be the one confirmed (its `planKey`), or nothing is
   * sent. Without it, the request is built from what the store holds, with no fresh read.
   */
  confirmation?: Confirmation;
  /**
   * Not followed here: the caller follows the version later (`Execution.follow` with the
   * outcome's `follow`). A batch follows its versions once its sending is over, so a hundred
   * polling loops do not start in the middle of its sends; a stop before that resumes them at
   * start-up, as every active version is.
   */
  followLater?: boolean;
}

/**
 * Where the rows come from. A draft's execution is claimed once per draft (a draft that became a
 * version is executed again only when the manager names that version: `againAfter`); a batch's
 * rows have no draft, and the batch is named in the execution's activity entry.
 */
export type ExecutionOrigin =
  | { kind: 'draft'; draftId: string }
  | {
      kind: 'batch';
      batchId: string;
      /** The batch's `batch-reviewed` activity entry, which the execution's entry refers to. */
      reviewSeq?: number | null;
      /** The batch's item: it names the journal entry in the transaction that arms it. */
      position?: number;
    };

export interface Confirmation {
  /** The plan the manager saw (confirmation.ts, planOf): executing sends only that plan. */
  planKey: string;
  /** The manager acknowledged that the target is in doubt (stale, unknown or unconfirmed). */
  acknowledgedStale: boolean;
  /** A draft executed again: the version it became before ("Execute again"); null otherwise. */
  againAfter: string | null;
  /** The restricted symbols overridden by name, with the note (restrictions/: `forExecution`). */
  restrictionOverride?: RestrictionOverrideInput | undefined;
}

/** What a fresh read of a strategy and its known target found (both are stored). */
export interface FreshRead {
  /** The service no longer knows the known target's version. */
  unknownToService: boolean;
}
