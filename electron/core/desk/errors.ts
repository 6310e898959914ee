import { ZodError } from 'zod';
import { DeskError } from '../../../shared/views';
import { InvalidDraftError } from '../../../shared/draft';
import { ServiceError } from '../api';
import { ExecutionBlockedError } from '../execute';
import { StoreError } from '../store';

/**
 * Everything the desk throws reaches the renderer as a DeskError: a kind the
 * screens can act on, a message a manager understands, and the service's own
 * words and status kept apart for the "details" disclosure.
 */
export function toDeskError(error: unknown): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof ServiceError) {
    return new DeskError({
      kind: error.kind,
      message: error.message,
      ...(error.status !== undefined && { status: error.status }),
      ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
      details: { ...error.details, ambiguous: error.ambiguous },
    });
  }
  if (error instanceof InvalidDraftError) {
    return new DeskError({
      kind: 'invalid_draft',
      message: error.message,
      details: { messages: error.messages },
    });
  }
  if (error instanceof ExecutionBlockedError) {
    return new DeskError({
      kind: 'execution_blocked',
      message: error.message,
      details: { state: error.state },
    });
  }
  if (error instanceof StoreError) {
    return new DeskError({ kind: `store_${error.code}`, message: error.message });
  }
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
    return new DeskError({
      kind: 'bad_input',
      message: `${issue?.message ?? 'Invalid input'}${where}`,
    });
  }
  return new DeskError({
    kind: 'internal',
    message: 'Something went wrong inside the app. Nothing was sent to the service by this action.',
    details: { cause: error instanceof Error ? error.message : String(error) },
  });
}

export const notFound = (what: string) =>
  new DeskError({ kind: 'not_found_locally', message: `${what} is not in this app.` });
