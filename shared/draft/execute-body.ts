import type { ExecuteRequest } from '../domain/resources';
import { indexTarget } from './rules';
import type { DraftError, DraftRowInput, RowError, TargetPosition } from './types';
import { validateDraft } from './validate';

/** Thrown instead of building a body from a draft that is not valid. */
export class InvalidDraftError extends Error {
  override readonly name = 'InvalidDraftError';
  constructor(
    /** Every problem in words a manager understands, row errors first. */
    readonly messages: string[],
    readonly rowErrors: RowError[],
    readonly draftErrors: DraftError[],
  ) {
    super(`The draft cannot be executed: ${messages.join(' ')}`);
  }
}

/**
 * The execute request body (docs/service-interface.md, Endpoints) for a draft: its rows in draft order
 * (symbols upper-cased, weights trimmed and otherwise exactly as typed), then every symbol
 * of the current target the draft leaves out, with weight "0", so the request never relies
 * on the service removing them implicitly. Validates the draft first; throws
 * InvalidDraftError when it is not valid.
 */
export function buildExecuteBody(
  rows: readonly DraftRowInput[],
  previousTarget: readonly TargetPosition[],
): ExecuteRequest {
  const validation = validateDraft(rows, { previousTarget });
  if (!validation.valid) {
    const rowErrors = validation.rows.flatMap((row) => row.errors);
    throw new InvalidDraftError(
      [...rowErrors, ...validation.errors].map((e) => e.message),
      rowErrors,
      validation.errors,
    );
  }
  const positions: { symbol: string; weight: string }[] = [];
  const named = new Set<string>();
  for (const row of validation.rows) {
    positions.push({ symbol: row.symbol, weight: row.weight });
    named.add(row.symbol);
  }
  for (const symbol of indexTarget(previousTarget).keys()) {
    if (named.has(symbol)) continue;
    positions.push({ symbol, weight: '0' });
    named.add(symbol);
  }
  return { data: { positions } };
}
