import { DeskError } from '../../../shared/errors';
import { DomainError } from '../errors';

/**
 * The refusals of executing that the app makes itself, before or instead of sending, each with
 * its kind on the contract (toDeskError in core/errors.ts asks them).
 */

/** A draft that already became a version, executed again without naming it ("Execute again"). */
export class DraftExecutedError extends DomainError {
  constructor(readonly versionId: string) {
    super(
      `This draft was already executed as version ${versionId}. Nothing was sent; choose "Execute again" to execute it once more.`,
    );
    this.name = 'DraftExecutedError';
  }

  toDeskError(): DeskError {
    return new DeskError({
      kind: 'executed-before',
      message: this.message,
      details: { versionId: this.versionId },
    });
  }
}

/** A new execution of a strategy while an earlier one has no definite outcome. */
export class ExecutionBlockedError extends DomainError {
  constructor(readonly state: string) {
    super(
      state === 'unknown'
        ? 'An earlier execution of this strategy has an unknown outcome: retry it with the same key or dismiss it first.'
        : 'Another execution of this strategy is already in flight; wait for its answer.',
    );
    this.name = 'ExecutionBlockedError';
  }

  toDeskError(): DeskError {
    return new DeskError({
      kind: 'execution-blocked',
      message: this.message,
      details: { state: this.state },
    });
  }
}
