/**
 * The refusals of executing that the app makes itself, before or instead of sending: the desk
 * gives each its kind on the contract (desk/errors.ts).
 */

/** A draft that already became a version, executed again without naming it ("Execute again"). */
export class DraftExecutedError extends Error {
  constructor(readonly versionId: string) {
    super(
      `This draft was already executed as version ${versionId}. Nothing was sent; choose "Execute again" to execute it once more.`,
    );
    this.name = 'DraftExecutedError';
  }
}

/** A new execution of a strategy while an earlier one has no definite outcome. */
export class ExecutionBlockedError extends Error {
  constructor(readonly state: string) {
    super(
      state === 'unknown'
        ? 'An earlier execution of this strategy has an unknown outcome: retry it with the same key or dismiss it first.'
        : 'Another execution of this strategy is already in flight; wait for its answer.',
    );
    this.name = 'ExecutionBlockedError';
  }
}
