import type { ExecuteRequest } from '../domain/resources';
import { predictExecution } from './prediction';
import type { DraftError, DraftRowInput, HeldPosition, RowError, TargetPosition } from './types';
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
 * of the known current target the draft leaves out, then every held symbol it leaves out, each
 * with weight "0", so the request never relies on the service removing them implicitly.
 * Validates the draft first; throws InvalidDraftError when it is not valid.
 */
export function buildExecuteBody(
  rows: readonly DraftRowInput[],
  previousTarget: readonly TargetPosition[],
  holdings: readonly HeldPosition[] = [],
): ExecuteRequest {
  return predictExecution(validOrThrow(rows, previousTarget), previousTarget, holdings).body;
}

/** The draft's validation when it can be executed; InvalidDraftError otherwise. */
export function validOrThrow(
  rows: readonly DraftRowInput[],
  previousTarget: readonly TargetPosition[],
  options: { liquidateOnly?: boolean; targetUnknown?: boolean } = {},
) {
  const validation = validateDraft(rows, { previousTarget, ...options });
  if (!validation.valid) {
    const rowErrors = validation.rows.flatMap((row) => row.errors);
    throw new InvalidDraftError(
      [...rowErrors, ...validation.errors].map((e) => e.message),
      rowErrors,
      validation.errors,
    );
  }
  return validation;
}
