import { validateDraft } from '../draft/validate';
import type { DraftErrorCode } from '../draft/types';
import type { ModelRowInput } from './canonical';

/**
 * A model's rows follow the draft's rules (shared/draft/validate.ts), judged against no target:
 * each weight 0 to 98, the sum at most 98 (cash at least 2), no duplicate or malformed symbol, at
 * least one row above 0. Only the words of the whole-model problems differ (a model is not
 * executed, so "nothing to execute" reads as what it is).
 */

export interface ModelValidation {
  valid: boolean;
  /** Every problem, row problems first ("Row 2 (AGG): …"), in the manager's words. */
  messages: string[];
  total: string;
  cash: string;
}

const MODEL_WORDS: Partial<Record<DraftErrorCode, string>> = {
  'no-positions': 'The model has no rows; add at least one position.',
  'nothing-to-execute': 'Every weight is 0: give at least one position a weight above 0.',
};

export function validateModelRows(rows: readonly ModelRowInput[]): ModelValidation {
  const validation = validateDraft(rows);
  const messages = validation.rows.flatMap((r) => r.errors.map((e) => e.message));
  for (const error of validation.errors)
    messages.push(MODEL_WORDS[error.code] ?? error.message.replace(/\bdraft\b/g, 'model'));
  return { valid: validation.valid, messages, total: validation.total, cash: validation.cash };
}
