import { InvalidDraftError } from '../../shared/draft';
import {
  DESK_ERROR_MESSAGES,
  DeskError,
  deskError,
  type DeskErrorWire,
  type SystemErrorKind,
} from '../../shared/errors';
import { ServiceError } from './api/errors';
import { StoreError } from './store/errors';

/**
 * Errors of every core layer and their kind on the contract. This file sits at the bottom (the
 * infrastructure): an error of a domain (execution, reports) names its own kind by extending
 * `DomainError`, so nothing here imports upward.
 */

/** Raw system text goes here, never to the renderer. */
export type ErrorLog = (line: string) => void;
const defaultLog: ErrorLog = (line) => console.error(`[desk] ${line}`);

/** File-system and SQLite codes a manager can do something about. */
const SYSTEM_KINDS: Record<string, SystemErrorKind> = {
  ENOSPC: 'disk-full',
  EDQUOT: 'disk-full',
  SQLITE_FULL: 'disk-full',
  EACCES: 'no-permission',
  EPERM: 'no-permission',
  SQLITE_PERM: 'no-permission',
  SQLITE_AUTH: 'no-permission',
  EROFS: 'read-only',
  SQLITE_READONLY: 'read-only',
  ENOENT: 'folder-missing',
  ENOTDIR: 'folder-missing',
  SQLITE_CANTOPEN: 'folder-missing',
  EBUSY: 'file-busy',
  SQLITE_BUSY: 'file-busy',
  SQLITE_LOCKED: 'file-busy',
};

/** A system error's kind by its code (`SQLITE_FULL`, `SQLITE_BUSY_SNAPSHOT` by its prefix). */
export function systemErrorKind(error: unknown): SystemErrorKind | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  if (SYSTEM_KINDS[code]) return SYSTEM_KINDS[code]!;
  const base = /^SQLITE_[A-Z]+/.exec(code)?.[0];
  return (base && SYSTEM_KINDS[base]) || null;
}

/** The system keychain failed (not: it holds no secret). Its own words are logged, not shown. */
export class KeychainFailure extends Error {
  override readonly name = 'KeychainFailure';
  constructor(options: { cause: unknown }) {
    super(DESK_ERROR_MESSAGES['keychain-failed'], options);
  }
}

/** An error of a domain above this file that knows the DeskError it becomes. */
export abstract class DomainError extends Error {
  abstract toDeskError(log: ErrorLog): DeskError;
}

/**
 * Everything the desk throws reaches the renderer as a DeskError of a named kind, with a
 * message a manager understands; the service's own words and status are kept apart for the
 * "details" disclosure. Raw system text is logged here and never travels further.
 */
export function toDeskError(error: unknown, log: ErrorLog = defaultLog): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof ServiceError) return new DeskError(serviceErrorWire(error));
  if (error instanceof InvalidDraftError) {
    return new DeskError({
      kind: 'invalid-draft',
      message: error.message,
      details: { messages: error.messages },
    });
  }
  if (error instanceof DomainError) return error.toDeskError(log);
  if (error instanceof StoreError) {
    log(`data file: ${error.message}`);
    return deskError(error.code);
  }
  if (error instanceof KeychainFailure) {
    log(`keychain: ${describeCause(error.cause)}`);
    return deskError('keychain-failed');
  }
  const systemKind = systemErrorKind(error);
  if (systemKind) {
    log(`system: ${describeCause(error)}`);
    return deskError(systemKind);
  }
  log(`internal: ${describeCause(error)}`);
  return new DeskError({
    kind: 'internal',
    message: 'Something went wrong inside the app. Nothing was sent to the service by this action.',
  });
}

/**
 * A service failure as it crosses: the same kind, and of its details only what that kind carries
 * (shared/errors/wire.ts), with whether the service may have acted.
 */
function serviceErrorWire(error: ServiceError): DeskErrorWire {
  const d = error.details;
  const facts = {
    ambiguous: error.ambiguous,
    ...(d.code !== undefined && { code: d.code }),
    ...(d.fields !== undefined && { fields: d.fields }),
    ...(d.retryAfterSeconds !== undefined && { retryAfterSeconds: d.retryAfterSeconds }),
    ...(d.requestSent !== undefined && { requestSent: d.requestSent }),
  };
  const said = {
    message: error.message,
    ...(error.status !== undefined && { status: error.status }),
    ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
  };
  switch (error.kind) {
    case 'unknown-symbols':
      return {
        ...said,
        kind: error.kind,
        details: { ...facts, unknownSymbols: d.unknownSymbols ?? [] },
      };
    case 'unexecuted-version':
    case 'conflict':
      return { ...said, kind: error.kind, details: { ...facts, versionId: d.versionId ?? null } };
    case 'validation':
      return {
        ...said,
        kind: error.kind,
        details: { ...facts, ...(d.versionId !== undefined && { versionId: d.versionId }) },
      };
    case 'forbidden':
      return {
        ...said,
        kind: error.kind,
        details: {
          ...facts,
          ...(d.missingScope !== undefined && { missingScope: d.missingScope }),
          missingScopes: d.missingScopes ?? [],
        },
      };
    case 'bad-response':
      return {
        ...said,
        // The sentence names what is wrong (the field, the coding); the parser's words stay in
        // the details.
        message: badResponseMessage(error),
        kind: error.kind,
        details: {
          ...facts,
          ...(d.issues !== undefined && { issues: d.issues }),
          ...(d.problem !== undefined && { problem: d.problem }),
        },
      };
    default:
      return { ...said, kind: error.kind, details: facts };
  }
}

/** "The service answered in a form the app does not understand: <what>." */
function badResponseMessage(error: ServiceError): string {
  const problem = error.details.problem;
  const general = DESK_ERROR_MESSAGES['bad-response'];
  if (!problem) return general;
  return `${general.replace(/\.$/, '')}: ${problem.replace(/\.$/, '')}.`;
}

export function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${cause.name}${typeof code === 'string' ? ` ${code}` : ''}: ${cause.message}`;
  }
  return String(cause);
}

export const notFound = (what: string) =>
  new DeskError({ kind: 'not-found', message: `${what} is not in this app.` });
