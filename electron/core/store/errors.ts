import type { StoreErrorKind } from '../../../shared/errors';

export type { StoreErrorKind };

/**
 * Why a data file could not be opened; `code` (a kind of the app's one vocabulary,
 * shared/errors/kinds.ts) lets the app choose what to offer the user.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
