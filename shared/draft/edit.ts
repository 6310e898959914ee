import { DECIMAL_PATTERN, Decimal } from '../decimal';
import { Divide, Exact, NINETY_EIGHT, ZERO, plain } from './exact';
import type { DraftRowInput } from './types';
import { parseImportedWeight } from './validate';

/**
 * Editing helpers of the draft editor. They return a new array and never touch the input;
 * rows they do not change keep their identity (the analyzer then skips them).
 */

export type RescaleResult =
  | {
      ok: true;
      rows: DraftRowInput[];
      /** What the locked rows total (kept as typed); the unlocked rows total the rest. */
      lockedTotal: string;
    }
  | { ok: false; error: string };

/** Places a rescaled weight keeps; the rounding remainder goes to the largest row. */
export const RESCALE_PLACES = 6;

/**
 * "Rescale so the draft totals N %": scales the unlocked weights so that all weights, the locked
 * rows' included, sum exactly to `total` (a decimal string;
 * spaces and a trailing % allowed). Each scaled weight is rounded down to at most 6 places and
 * what rounding left over is added to the largest unlocked row, so the sum is exact and no
 * weight goes below 0. Locked rows (by index) and rows at 0 keep their weight as typed.
 */
export function rescaleToTotal(
  rows: readonly DraftRowInput[],
  total: string,
  locked: ReadonlySet<number> = new Set(),
): RescaleResult {
  const parsedTotal = parseImportedWeight(total);
  if (!parsedTotal.ok) return fail(`The total "${total.trim()}" ${parsedTotal.error}.`);
  const goal = new Exact(parsedTotal.value);
  if (goal.lt(ZERO) || goal.gt(NINETY_EIGHT))
    return fail(`The total must be from 0 to 98 (cash keeps at least 2); ${plain(goal)} is not.`);
  if (rows.length === 0) return fail('The draft has no rows to rescale.');

  const weights: Decimal[] = [];
  let lockedSum: Decimal = new Exact(0);
  let unlockedSum: Decimal = new Exact(0);
  let largest = -1;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const text = row.weight.trim();
    const label = row.symbol.trim()
      ? `Row ${i + 1} (${row.symbol.trim().toUpperCase()})`
      : `Row ${i + 1}`;
    if (!DECIMAL_PATTERN.test(text))
      return fail(`${label}: weight "${text}" is not a decimal number; fix it before rescaling.`);
    const weight = new Exact(text);
    if (weight.lt(ZERO))
      return fail(`${label}: weight ${text} is below 0; fix it before rescaling.`);
    weights.push(weight);
    if (locked.has(i)) lockedSum = lockedSum.plus(weight);
    else {
      unlockedSum = unlockedSum.plus(weight);
      if (!weight.isZero() && (largest < 0 || weight.gt(weights[largest]!))) largest = i;
    }
  }

  const remaining = goal.minus(lockedSum);
  if (remaining.lt(ZERO))
    return fail(
      `The locked rows already total ${plain(lockedSum)}, more than ${plain(goal)}; ` +
        'unlock some rows or choose a larger total.',
    );
  const lockedTotal = plain(lockedSum);
  if (unlockedSum.eq(remaining)) return { ok: true, rows: rows.slice(), lockedTotal };
  if (largest < 0)
    return fail(
      rows.every((_, i) => locked.has(i))
        ? `Every row is locked, so nothing can change to reach ${plain(goal)}; unlock a row first.`
        : `Every unlocked row is at 0, so there is nothing to scale up to ${plain(goal)}; ` +
            'give one of them a weight first.',
    );

  const result = rows.slice();
  let placed: Decimal = new Exact(0);
  const scaled: number[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (locked.has(i) || weights[i]!.isZero()) continue;
    scaled.push(i);
    // Rounded down, so the leftover is never negative and no weight goes below 0.
    const share = new Divide(weights[i]!.times(remaining))
      .div(unlockedSum)
      .toDecimalPlaces(RESCALE_PLACES, Decimal.ROUND_DOWN);
    weights[i] = new Exact(share);
    placed = placed.plus(weights[i]!);
  }
  weights[largest] = weights[largest]!.plus(remaining.minus(placed));
  for (const i of scaled) result[i] = { ...rows[i]!, weight: plain(weights[i]!) };
  return { ok: true, rows: result, lockedTotal };
}

/** Sets the weights of the given rows to "0" (the position is removed on execute). */
export function setToZero(
  rows: readonly DraftRowInput[],
  indexes: Iterable<number>,
): DraftRowInput[] {
  const zero = new Set(indexes);
  return rows.map((row, i) => (zero.has(i) ? { ...row, weight: '0' } : row));
}

function fail(error: string): RescaleResult {
  return { ok: false, error };
}
