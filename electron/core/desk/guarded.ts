import type { DeskHandlers } from '../../../shared/contract';
import { STORE_ERROR_KINDS, isKind } from '../../../shared/errors';
import { errorFields, type DeskLog } from '../log/logger';
import { toDeskError } from '../errors';

/**
 * Every handler throws only DeskErrors, so both hosts pass errors on unchanged. Input is
 * validated once, by the dispatcher both hosts call through (electron/transport/dispatch.ts).
 */
export function guarded(
  handlers: DeskHandlers,
  log: DeskLog,
  /** Told of every call as it starts (the desk waits for a quiet moment to walk the log). */
  onCall: (channel: string) => void = () => undefined,
): DeskHandlers {
  const out: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const [area, methods] of Object.entries(handlers) as [
    keyof DeskHandlers,
    Record<string, (i: unknown) => Promise<unknown>>,
  ][]) {
    out[area] = {};
    for (const [name, fn] of Object.entries(methods)) {
      out[area][name] = async (input: unknown) => {
        onCall(`${area}.${name}`);
        try {
          return await fn(input);
        } catch (error) {
          const deskError = toDeskError(error);
          // Our own failure: the manager sees a plain sentence, the log keeps what happened.
          if (isKind(deskError, 'internal', ...STORE_ERROR_KINDS)) {
            log.error(`${area}.${name} failed`, errorFields(error));
          }
          throw deskError;
        }
      };
    }
  }
  return out as unknown as DeskHandlers;
}
