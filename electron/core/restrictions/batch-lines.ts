import { setTargetCash } from '../../../shared/draft/cash';
import { DeskError } from '../../../shared/errors';
import type { Store } from '../store';
import { Restrictions } from './restrictions';

/**
 * What a batch's review takes from restrictions and cash by weight (batches/review.ts): the
 * model's rows with another target cash, and why a strategy's line is excluded when its rows
 * break a restriction (a batch has no override: such a strategy is executed from a draft, where
 * the manager names each symbol with a note).
 */

/** The model's rows scaled to leave `cash` % (refused in words when the rules do not allow it). */
export function modelRowsWithCash(
  rows: readonly { symbol: string; weight: string }[],
  cash: string | undefined,
) {
  if (cash === undefined) return { rows, targetCash: null };
  const result = setTargetCash(rows, cash);
  if (!result.ok) throw new DeskError({ kind: 'invalid-input', message: result.error });
  const { cashBefore, cashAfter, changes } = result;
  return { rows: result.rows, targetCash: { cashBefore, cashAfter, changes } };
}

/** Why the line cannot be sent in a batch: each restricted symbol in words; null when none. */
export function restrictedLine(
  store: Pick<Store, 'restrictions' | 'profiles' | 'strategies' | 'drafts'>,
  profileId: string,
  strategyId: string,
  rows: readonly { symbol: string; weight: string }[],
): string | null {
  const { violations } = new Restrictions(store, () => new Date().toISOString()).check(
    profileId,
    strategyId,
    rows,
  );
  if (violations.length === 0) return null;
  return (
    'It breaks a restriction (a batch sends no override: execute it from a draft, naming each ' +
    `symbol with a note):\n${violations.map((v) => `${v.level === 'certain' ? 'Certain' : 'Possible'}: ${v.message}`).join('\n')}`
  );
}
