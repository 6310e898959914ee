import type { RowAction, TargetDoubt } from './types';

/**
 * The words of a prediction, one vocabulary wherever it is shown (the draft grid, the
 * confirmation, the activity log), so no label there contradicts another: a row reads as its
 * predicted action, or 'uncertain' with the sale of a held symbol as the one fact beside it.
 */

/** Why the target is in doubt, as a clause ("…: no action is predicted"). */
export const DOUBT_WORDS: Record<TargetDoubt, string> = {
  unknown: 'no executed version of this strategy is known here',
  stale: 'the holdings do not fit the last known target (it may have been changed elsewhere)',
  unconfirmed: 'the service no longer knows the version taken as the target here',
};

/**
 * A row's action in words. `action` null: a record made before doubts were recorded, on an
 * unknown target. A held symbol sent at 0 is sold whole whatever the target: said first, as
 * the fact, beside an uncertain action; beside IGNORE (its target weight was already 0) the
 * sale is the whole story.
 */
export function actionWords(row: { action: RowAction | null; sellsAll: boolean }): string {
  if (row.action === null || row.action === 'uncertain') {
    const word = row.action === null ? 'unknown' : 'uncertain';
    return row.sellsAll ? `sells all · action ${word}` : word;
  }
  if (!row.sellsAll) return row.action;
  return row.action === 'REMOVE' ? 'REMOVE · sells all' : 'sells all · target weight stays 0';
}
