import type { Restriction, Violation } from '../restrictions/rules';
import type { PositionAction } from '../domain/constants';

/** One row of a draft as the manager typed it (decimal strings, never numbers). */
export interface DraftRowInput {
  symbol: string;
  weight: string;
}

/** A position of the current target: the latest executed version's positions. */
export interface TargetPosition {
  symbol: string;
  weight: string;
}

/**
 * Why the target known here may not be the one the service acts on: none is known here
 * ('unknown'), the holdings do not fit it ('stale'), or the service no longer knows its version
 * ('unconfirmed'). With any of them no action is predicted: each row's action is 'uncertain'.
 */
export type TargetDoubt = 'unknown' | 'stale' | 'unconfirmed';

/** A row's action: the one the service will give it, or 'uncertain' (see TargetDoubt). */
export type RowAction = PositionAction | 'uncertain';

/**
 * What executing does to a position, in one vocabulary for the grid, the confirmation and the
 * activity entry. 'sell-held' (held and sent at 0: sold whole) is a fact whatever the target;
 * 'uncertain': the target is in doubt, so whether the weight is added, changed, removed or left
 * is not known here.
 */
export type PredictedEffect = 'add' | 'change' | 'remove' | 'sell-held' | 'unchanged' | 'uncertain';

/** What the strategy holds now. */
export interface HeldPosition {
  symbol: string;
  quantity: string;
}

export type RowErrorCode =
  | 'symbol-empty'
  | 'symbol-invalid'
  | 'symbol-duplicate'
  | 'weight-empty'
  | 'weight-not-decimal'
  | 'weight-out-of-range'
  | 'liquidate-only-increase';

export type DraftErrorCode =
  'no-positions' | 'too-many-rows' | 'too-many-positions' | 'total-over-98' | 'nothing-to-execute';

export interface RowError {
  code: RowErrorCode;
  /** The cell the error belongs to, so the grid can mark it. */
  field: 'symbol' | 'weight';
  message: string;
}

export interface DraftError {
  code: DraftErrorCode;
  message: string;
}

export interface ValidatedRow {
  /** Zero-based position in the draft; messages say "Row index+1". */
  index: number;
  /** Trimmed and upper-cased. */
  symbol: string;
  /** Trimmed, otherwise exactly as typed. */
  weight: string;
  errors: RowError[];
}

export interface DraftValidation {
  rows: ValidatedRow[];
  errors: DraftError[];
  /** Sum of every weight that is a decimal string (out-of-range ones included). */
  total: string;
  /** 100 - total, exactly; present even when the draft is invalid. */
  cash: string;
  valid: boolean;
}

export interface DiffRow {
  symbol: string;
  /** Index of the draft row, or null for a symbol left out of the draft. */
  draftIndex: number | null;
  /** Current target weight as the service sent it, '0' when not in the target. */
  oldWeight: string;
  /**
   * A target is known here: oldWeight and change mean something (else shown as unknown). With
   * `doubt`, oldWeight is only the last known weight, not necessarily the service's.
   */
  oldKnown: boolean;
  /** Draft weight as typed (trimmed); '0' for a symbol left out of the draft. */
  newWeight: string;
  /** new - old, or null when the draft weight is not a decimal string. */
  change: string | null;
  /**
   * Predicted action, as the service derives it from the previous target; 'uncertain' on every
   * row when the target is in doubt (the app does not guess); null for a draft row with any error.
   */
  action: RowAction | null;
  /** Why the action is uncertain; null when it is predicted (or the row has errors). */
  doubt: TargetDoubt | null;
  /** What executing does to it (see PredictedEffect); null for a draft row with any error. */
  effect: PredictedEffect | null;
  /** Quantity held now, '0' when not held. */
  heldQuantity: string;
  /** Held (non-zero quantity) and absent from the draft: the rebalance will sell it. */
  heldNotInDraft: boolean;
  /** Held and sent at weight 0 (a 0 row, or left out): the whole quantity is sold. */
  sellsAll: boolean;
  /** Held while the known target does not contain it (false when the target is unknown). */
  heldNotInTarget: boolean;
  /** In the current target and absent from the draft: sent with weight 0 (REMOVE). */
  inTargetNotInDraft: boolean;
}

export interface DraftDiff {
  /** Draft rows in draft order, then left-out target symbols, then other held symbols. */
  rows: DiffRow[];
  /** 100 - sum of the current target (100 when there is none known); the last known one with a doubt. */
  oldCash: string;
  /** Why the target may not be the service's; null when it is taken as the service's. */
  doubt: TargetDoubt | null;
  /** The draft's cash remainder (same as DraftValidation.cash). */
  newCash: string;
}

/** The most one position may hold, and the most all positions may total (cash >= 2). */
export const MAX_WEIGHT = '98';
export const MAX_ROWS = 1000;
/** The most characters a draft cell keeps (the contract's limit on a saved row's symbol and weight). */
export const MAX_CELL_CHARS = 64;

/** The draft analyzer's answers and options (analyzer.ts). */

/** What update answers: the same facts as DraftAnalysis, without copying any row array. */
export interface DraftUpdate {
  /** The rows against the restrictions in force (none without any): certain first. */
  restrictions: readonly Violation[];
  /** Every row was recomputed (first call, rows inserted or removed, new context). */
  rebuilt: boolean;
  /** Draft rows whose validated and diff rows were recomputed (objects replaced). */
  refreshed: readonly number[];
  /** One per draft row, live. */
  validated: readonly ValidatedRow[];
  /** One per draft row, live: diff.rows without the left-out rows. */
  diffRows: readonly DiffRow[];
  /** Symbols the draft leaves out (target, then held), live; the tail of diff.rows. */
  leftOut: readonly DiffRow[];
  errors: DraftValidation['errors'];
  total: string;
  cash: string;
  oldCash: string;
  /** Why the target may not be the service's (no action predicted); null when it is. */
  doubt: TargetDoubt | null;
  /** Draft rows with at least one error. */
  errorRows: number;
  valid: boolean;
}

export interface AnalyzerOptions {
  /** The strategy is liquidate-only: a weight above the known target's is a row error. */
  liquidateOnly?: boolean;
  /**
   * The holdings do not fit the known target (the strategy may have changed elsewhere): its
   * weights are only the last known ones and no action is predicted.
   */
  stale?: boolean;
  /**
   * The restrictions in force for the strategy, by upper-case symbol (shared/restrictions): each
   * answer then classes the rows against them (`restrictions`).
   */
  restrictions?: ReadonlyMap<string, readonly Restriction[]>;
}
