import { DECIMAL_PATTERN } from '../decimal';
import { rescaleToTotal } from './edit';
import { Exact, HUNDRED, NINETY_EIGHT, ZERO, plain } from './exact';
import type { DraftRowInput } from './types';
import { parseImportedWeight } from './validate';

/**
 * Cash by weight: a target's cash is what its weights leave of 100 (the service gives no cash
 * balance and no prices). "Set target cash to X %" is the draft's rescale to a total of 100 - X
 * (edit.ts: the unlocked rows scaled proportionally, locked rows and rows at 0 untouched, each
 * share rounded down to 6 places and the remainder on the largest row, so the sum is exact),
 * with the draft's rule kept: at least 2 % cash. Each row it moved is named with both weights.
 */

export interface CashChange {
  symbol: string;
  from: string;
  to: string;
}

export type TargetCashResult =
  | {
      ok: true;
      rows: DraftRowInput[];
      /** Cash before (100 - the sum of the weights) and after, exact. */
      cashBefore: string;
      cashAfter: string;
      /** The rows whose weight changed, in row order. */
      changes: CashChange[];
    }
  | { ok: false; error: string };

/**
 * The target cash asked, as an exact percentage, or why it cannot be one: not a number, or
 * outside 2 to 100 % (the draft's rule keeps at least 2 % cash). Checked before anything is
 * sent as well as where it is applied.
 */
export function parseTargetCash(
  cash: string,
): { ok: true; value: string } | { ok: false; error: string } {
  const parsed = parseImportedWeight(cash);
  if (!parsed.ok) return { ok: false, error: `The target cash "${cash.trim()}" ${parsed.error}.` };
  const wanted = new Exact(parsed.value);
  const total = HUNDRED.minus(wanted);
  if (total.lt(ZERO) || total.gt(NINETY_EIGHT))
    return {
      ok: false,
      error: `Target cash must be from 2 to 100 % (the rules keep at least 2 % cash); ${plain(wanted)} % is not.`,
    };
  return { ok: true, value: plain(wanted) };
}

export function setTargetCash(
  rows: readonly DraftRowInput[],
  cash: string,
  locked: ReadonlySet<number> = new Set(),
): TargetCashResult {
  const parsed = parseTargetCash(cash);
  if (!parsed.ok) return parsed;
  const wanted = new Exact(parsed.value);
  const total = HUNDRED.minus(wanted);
  let before = new Exact(0);
  let lockedSum = new Exact(0);
  for (const [i, row] of rows.entries()) {
    const text = row.weight.trim();
    if (!DECIMAL_PATTERN.test(text)) continue;
    before = before.plus(text);
    if (locked.has(i)) lockedSum = lockedSum.plus(text);
  }
  if (lockedSum.gt(total))
    return {
      ok: false,
      error:
        `The locked rows total ${plain(lockedSum)} %, so target cash can be at most ` +
        `${plain(HUNDRED.minus(lockedSum))} %; unlock some rows or choose less cash.`,
    };
  const result = rescaleToTotal(rows, plain(total), locked);
  if (!result.ok) return result;
  const changes: CashChange[] = [];
  result.rows.forEach((row, i) => {
    if (row !== rows[i])
      changes.push({
        symbol: row.symbol.trim().toUpperCase(),
        from: rows[i]!.weight.trim(),
        to: row.weight,
      });
  });
  return {
    ok: true,
    rows: result.rows,
    cashBefore: plain(HUNDRED.minus(before)),
    cashAfter: plain(wanted),
    changes,
  };
}
