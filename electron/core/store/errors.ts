/** Why a data file could not be opened; `code` lets the app choose what to offer the user. */
export type StoreErrorCode =
  'not-sqlite' | 'not-ours' | 'newer-schema' | 'migration-failed' | 'damaged' | 'read-only';

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
