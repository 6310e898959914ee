import { DECIMAL_PATTERN } from '../decimal';
import type { ExecuteRequest, PositionAction, VersionPosition } from '../domain/resources';
import { predictRow } from './diff';
import { Exact, ZERO, isZeroString, plain, HUNDRED } from './exact';
import { indexHoldings, indexTarget, sumTarget } from './rules';
import type {
  DraftValidation,
  HeldPosition,
  PredictedEffect,
  RowAction,
  TargetDoubt,
  TargetPosition,
} from './types';

/**
 * What executing a draft will do, as far as the app can know it. Holdings are facts (read
 * fresh): a held symbol sent at weight 0 is a sale of the whole quantity, whatever the target.
 * The current target is only what the app knows (the latest executed version it has seen); when
 * it knows none, or has reasons to doubt that the service still targets it, actions are not
 * guessed: each is 'uncertain', with the reason, and its weights are only the last known ones.
 */

export type { PredictedEffect, RowAction, TargetDoubt } from './types';

export interface PredictedPosition {
  symbol: string;
  /** The weight the request sends. */
  weight: string;
  /**
   * The known target's weight ('0' when not in it); null when no target is known here. The
   * service's old weight only when `action` is predicted; with a doubt, the last known one.
   */
  oldWeight: string | null;
  /** The action the service will give it, or 'uncertain' when the target is in doubt. */
  action: RowAction;
  /** Why the action is uncertain (the prediction's first doubt); null when it is predicted. */
  doubt: TargetDoubt | null;
  /** Quantity held now, '0' when not held. */
  heldQuantity: string;
  /** Held and sent at weight 0: the rebalance sells the whole quantity. */
  sellsAll: boolean;
  /** Held, while the known target does not contain it (false when the target is unknown). */
  heldNotInTarget: boolean;
  /** Why it is in the request: a draft row, a known-target or a held symbol the draft leaves out. */
  source: 'draft' | 'target' | 'held';
  effect: PredictedEffect;
}

/** Facts beyond the target itself that put it in doubt (see TargetDoubt). */
export interface TargetStanding {
  /** The holdings do not fit the known target (checkTarget's `fits` is false). */
  stale?: boolean;
  /** The service no longer knows the known target's version. */
  unconfirmed?: boolean;
}

export interface ExecutionPrediction {
  /** The request body: draft rows, then left-out target symbols, then left-out held symbols, at 0. */
  body: ExecuteRequest;
  /** One per position of the body, in the body's order. */
  positions: PredictedPosition[];
  targetKnown: boolean;
  /**
   * Why the target known here may not be the one the service acts on, in this order: 'unknown'
   * alone, or 'stale' and/or 'unconfirmed'. Empty: the known target is taken as the service's.
   */
  doubts: TargetDoubt[];
  /**
   * With a doubt: held symbols the known target does not contain (every held symbol when none
   * is known), sorted. The holdings suggest the service may target them now. Else empty.
   */
  possiblyTargeted: string[];
  /**
   * The manager must acknowledge the doubt before executing, and the desk refuses the request
   * without it: always for a stale or unconfirmed target; for an unknown one when the strategy
   * holds anything (a rebalance on a target nobody here knows may then sell it).
   */
  needsAcknowledgement: boolean;
  /** Target cash weight before (100 - known target; the last known with a doubt), null when none is known. */
  oldCash: string | null;
  /** Target cash weight the draft asks for. */
  newCash: string;
  /** The target is known beyond doubt and the draft changes none of its weights and sells nothing. */
  changesNothing: boolean;
}

/** The doubts in their fixed order. */
export function doubtsOf(known: boolean, standing: TargetStanding = {}): TargetDoubt[] {
  if (!known) return ['unknown'];
  const doubts: TargetDoubt[] = [];
  if (standing.stale) doubts.push('stale');
  if (standing.unconfirmed) doubts.push('unconfirmed');
  return doubts;
}

/**
 * Predicts the execution of a valid draft. `target` null: no executed version of the strategy is
 * known here. Held symbols with quantity 0 are not holdings.
 */
export function predictExecution(
  validation: DraftValidation,
  target: readonly TargetPosition[] | null,
  holdings: readonly HeldPosition[],
  standing: TargetStanding = {},
): ExecutionPrediction {
  const known = target !== null;
  const doubts = doubtsOf(known, standing);
  const doubt = doubts[0] ?? null;
  const targetMap = indexTarget(target ?? []);
  const held = new Map<string, string>();
  for (const [symbol, quantity] of indexHoldings(holdings))
    if (!isZeroString(quantity)) held.set(symbol, quantity);

  const positions: PredictedPosition[] = [];
  const named = new Set<string>();
  const add = (symbol: string, weight: string, source: PredictedPosition['source']) => {
    named.add(symbol);
    const entry = targetMap.get(symbol);
    const newWeight = DECIMAL_PATTERN.test(weight) ? new Exact(weight) : ZERO;
    const row = predictRow(entry ? entry.decimal : ZERO, newWeight, held.has(symbol), doubt);
    positions.push({
      symbol,
      weight,
      oldWeight: known ? (entry?.weight ?? '0') : null,
      action: row.action,
      doubt,
      heldQuantity: held.get(symbol) ?? '0',
      sellsAll: row.sellsAll,
      heldNotInTarget: known && held.has(symbol) && !entry,
      source,
      effect: row.effect,
    });
  };
  for (const row of validation.rows)
    if (!named.has(row.symbol)) add(row.symbol, row.weight, 'draft');
  for (const symbol of targetMap.keys()) if (!named.has(symbol)) add(symbol, '0', 'target');
  for (const symbol of held.keys()) if (!named.has(symbol)) add(symbol, '0', 'held');

  const possiblyTargeted =
    doubt === null ? [] : [...held.keys()].filter((s) => !targetMap.has(s)).sort();
  return {
    body: { data: { positions: positions.map((p) => ({ symbol: p.symbol, weight: p.weight })) } },
    positions,
    targetKnown: known,
    doubts,
    possiblyTargeted,
    needsAcknowledgement: doubts.some((d) => d !== 'unknown') || (!known && held.size > 0),
    oldCash: known ? plain(HUNDRED.minus(sumTarget(targetMap))) : null,
    newCash: validation.cash,
    changesNothing: known && doubt === null && positions.every((p) => p.effect === 'unchanged'),
  };
}

/**
 * A position as recorded with an execution. Records written before doubts existed hold a null
 * action (and no doubt) where the target was unknown: that too is an uncertain prediction.
 */
export type RecordedPosition = Pick<PredictedPosition, 'symbol' | 'oldWeight'> & {
  action: RowAction | null;
};

/** The recorded position's action was not predicted: the target was in doubt. */
export function isUncertain(position: Pick<RecordedPosition, 'action'>): boolean {
  return position.action === null || position.action === 'uncertain';
}

/** Where the service's answer differs from the prediction, per symbol. */
export interface PredictionDifference {
  symbol: string;
  /** What the app predicted; null when the request did not name the symbol. */
  predicted: { action: RowAction | null; oldWeight: string | null } | null;
  /** What the service answered; null when its answer has no position for the symbol. */
  service: { action: PositionAction; oldWeight: string; weight: string } | null;
  /**
   * The prediction was made on a target in doubt, and the confirmation said so: the service's
   * target differing from the last known one is what it warned of, not a surprise. Absent in
   * records written before this field (read them by the prediction's target state).
   */
  expected?: boolean;
}

/**
 * Compares the service's positions (after a 202) with the prediction. A symbol differs when the
 * app predicted an action and the service gave another, or another old weight (numerically); or
 * when only one side names it. On a target in doubt no action was predicted: a symbol differs
 * where the service's old weight is not the last known one (where one was known), or where only
 * one side names it, and every such difference is `expected`.
 */
export function comparePrediction(
  predicted: readonly RecordedPosition[],
  service: readonly VersionPosition[],
): PredictionDifference[] {
  const bySymbol = new Map(predicted.map((p) => [p.symbol, p]));
  // The doubt is the whole target's: one uncertain row makes every difference an expected one.
  const expected = predicted.some(isUncertain);
  const answered = new Set<string>();
  const differences: PredictionDifference[] = [];
  const guessOf = (p: RecordedPosition) => ({ action: p.action, oldWeight: p.oldWeight });
  for (const position of service) {
    answered.add(position.symbol);
    const guess = bySymbol.get(position.symbol);
    const theirs = {
      action: position.action,
      oldWeight: position.old_weight,
      weight: position.weight,
    };
    if (!guess) {
      differences.push({ symbol: position.symbol, predicted: null, service: theirs, expected });
      continue;
    }
    const sameOld =
      guess.oldWeight !== null &&
      DECIMAL_PATTERN.test(position.old_weight) &&
      new Exact(guess.oldWeight).eq(new Exact(position.old_weight));
    const differs = isUncertain(guess)
      ? guess.oldWeight !== null && !sameOld
      : guess.action !== position.action || !sameOld;
    if (differs)
      differences.push({
        symbol: position.symbol,
        predicted: guessOf(guess),
        service: theirs,
        expected,
      });
  }
  for (const guess of predicted)
    if (!answered.has(guess.symbol))
      differences.push({
        symbol: guess.symbol,
        predicted: guessOf(guess),
        service: null,
        expected,
      });
  return differences;
}
