import { DECIMAL_PATTERN } from '../decimal';
import type { ExecuteRequest, PositionAction, VersionPosition } from '../domain/resources';
import { predictAction } from './diff';
import { Exact, ZERO, isZeroString, plain, HUNDRED } from './exact';
import { indexHoldings, indexTarget, sumTarget } from './rules';
import type { DraftValidation, HeldPosition, TargetPosition } from './types';

/**
 * What executing a draft will do, as far as the app can know it. Holdings are facts (read
 * fresh): a held symbol sent at weight 0 is a sale of the whole quantity, whatever the target.
 * The current target is only what the app knows (the latest executed version it has seen); when
 * it knows none, actions are not guessed.
 */

/** How a position shows in the confirmation. */
export type PredictedEffect = 'add' | 'change' | 'remove' | 'sell-held' | 'unchanged' | 'unknown';

export interface PredictedPosition {
  symbol: string;
  /** The weight the request sends. */
  weight: string;
  /** The known target's weight ('0' when not in it); null when the target is unknown. */
  oldWeight: string | null;
  /** The action the service will give it; null when the target is unknown. */
  action: PositionAction | null;
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

export interface ExecutionPrediction {
  /** The request body: draft rows, then left-out target symbols, then left-out held symbols, at 0. */
  body: ExecuteRequest;
  /** One per position of the body, in the body's order. */
  positions: PredictedPosition[];
  targetKnown: boolean;
  /** Target cash weight before (100 - known target), null when the target is unknown. */
  oldCash: string | null;
  /** Target cash weight the draft asks for. */
  newCash: string;
  /** The target is known and the draft changes none of its weights and sells nothing. */
  changesNothing: boolean;
}

/**
 * Predicts the execution of a valid draft. `target` null: no executed version of the strategy is
 * known here. Held symbols with quantity 0 are not holdings.
 */
export function predictExecution(
  validation: DraftValidation,
  target: readonly TargetPosition[] | null,
  holdings: readonly HeldPosition[],
): ExecutionPrediction {
  const known = target !== null;
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
    const action = known ? predictAction(entry ? entry.decimal : ZERO, newWeight) : null;
    const heldQuantity = held.get(symbol) ?? '0';
    const sellsAll = held.has(symbol) && newWeight.isZero();
    positions.push({
      symbol,
      weight,
      oldWeight: known ? (entry?.weight ?? '0') : null,
      action,
      heldQuantity,
      sellsAll,
      heldNotInTarget: known && held.has(symbol) && !entry,
      source,
      effect: effectOf(action, sellsAll),
    });
  };
  for (const row of validation.rows)
    if (!named.has(row.symbol)) add(row.symbol, row.weight, 'draft');
  for (const symbol of targetMap.keys()) if (!named.has(symbol)) add(symbol, '0', 'target');
  for (const symbol of held.keys()) if (!named.has(symbol)) add(symbol, '0', 'held');

  return {
    body: { data: { positions: positions.map((p) => ({ symbol: p.symbol, weight: p.weight })) } },
    positions,
    targetKnown: known,
    oldCash: known ? plain(HUNDRED.minus(sumTarget(targetMap))) : null,
    newCash: validation.cash,
    changesNothing: known && positions.every((p) => p.effect === 'unchanged'),
  };
}

function effectOf(action: PositionAction | null, sellsAll: boolean): PredictedEffect {
  if (sellsAll) return 'sell-held';
  switch (action) {
    case null:
      return 'unknown';
    case 'ADD':
      return 'add';
    case 'CHANGE':
      return 'change';
    case 'REMOVE':
      return 'remove';
    case 'IGNORE':
      return 'unchanged';
  }
}

/** Where the service's answer differs from the prediction, per symbol. */
export interface PredictionDifference {
  symbol: string;
  /** What the app predicted; null when the request did not name the symbol. */
  predicted: { action: PositionAction | null; oldWeight: string | null } | null;
  /** What the service answered; null when its answer has no position for the symbol. */
  service: { action: PositionAction; oldWeight: string; weight: string } | null;
}

/**
 * Compares the service's positions (after a 202) with the prediction. A symbol differs when the
 * app predicted an action and the service gave another, or another old weight (numerically); or
 * when only one side names it. An action the app did not predict (unknown target) is no
 * difference by itself.
 */
export function comparePrediction(
  predicted: readonly PredictedPosition[],
  service: readonly VersionPosition[],
): PredictionDifference[] {
  const bySymbol = new Map(predicted.map((p) => [p.symbol, p]));
  const answered = new Set<string>();
  const differences: PredictionDifference[] = [];
  for (const position of service) {
    answered.add(position.symbol);
    const guess = bySymbol.get(position.symbol);
    const theirs = {
      action: position.action,
      oldWeight: position.old_weight,
      weight: position.weight,
    };
    if (!guess) {
      differences.push({ symbol: position.symbol, predicted: null, service: theirs });
      continue;
    }
    if (guess.action === null) continue;
    const sameOld =
      guess.oldWeight !== null &&
      DECIMAL_PATTERN.test(position.old_weight) &&
      new Exact(guess.oldWeight).eq(new Exact(position.old_weight));
    if (guess.action !== position.action || !sameOld)
      differences.push({
        symbol: position.symbol,
        predicted: { action: guess.action, oldWeight: guess.oldWeight },
        service: theirs,
      });
  }
  for (const guess of predicted)
    if (!answered.has(guess.symbol))
      differences.push({
        symbol: guess.symbol,
        predicted: { action: guess.action, oldWeight: guess.oldWeight },
        service: null,
      });
  return differences;
}
