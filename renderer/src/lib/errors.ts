import { DeskError, DESK_ERROR_MESSAGES, isDeskErrorKind } from '../../../shared/errors';

/** Any failure as a DeskError, so every error on screen has a plain message and its details. */
export function asDeskError(error: unknown): DeskError {
  if (error instanceof DeskError) return error;
  // Errors thrown across Electron's IPC lose their class but keep their fields.
  if (typeof error === 'object' && error !== null && 'kind' in error && 'message' in error) {
    const e = error as {
      kind: unknown;
      message: unknown;
      status?: unknown;
      serviceMessage?: unknown;
      details?: unknown;
    };
    if (typeof e.message === 'string') {
      // A kind this window does not know keeps its words, but is acted on as our own failure.
      return DeskError.fromWire({
        kind: isDeskErrorKind(e.kind) ? e.kind : 'internal',
        message: e.message,
        ...(typeof e.status === 'number' && { status: e.status }),
        ...(typeof e.serviceMessage === 'string' && { serviceMessage: e.serviceMessage }),
        ...(typeof e.details === 'object' &&
          e.details !== null && { details: e.details as Record<string, unknown> }),
      });
    }
  }
  return new DeskError({ kind: 'internal', message: DESK_ERROR_MESSAGES.internal });
}
