import { DeskError, INTERNAL_ERROR_MESSAGE } from '../../../shared/errors';

/**
 * Any failure as a DeskError, so every error on screen has a plain message and its details.
 * Errors thrown across Electron's IPC lose their class but keep their fields (the preload parsed
 * them with the wire schema): they are rebuilt as they came.
 */
export function asDeskError(error: unknown): DeskError {
  const known = DeskError.fromUnknown(error);
  if (known) return known;
  const e = error as { message?: unknown; status?: unknown; serviceMessage?: unknown } | null;
  if (typeof e === 'object' && e !== null && 'kind' in e && typeof e.message === 'string') {
    // A kind this window does not know keeps its words, but is acted on as our own failure;
    // its details, of a shape this window does not know, stay behind.
    return new DeskError({
      kind: 'internal',
      message: e.message,
      ...(typeof e.status === 'number' && { status: e.status }),
      ...(typeof e.serviceMessage === 'string' && { serviceMessage: e.serviceMessage }),
    });
  }
  return new DeskError({ kind: 'internal', message: INTERNAL_ERROR_MESSAGE });
}
