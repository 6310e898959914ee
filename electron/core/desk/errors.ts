import { InvalidDraftError } from '../../../shared/draft';
import {
  DESK_ERROR_MESSAGES,
  DeskError,
  deskError,
  type DeskErrorData,
  type DeskErrorKind,
} from '../../../shared/errors';
import { ServiceError, type ServiceErrorKind } from '../api';
import { DraftExecutedError, ExecutionBlockedError } from '../execution/errors';
import { OrderReportFileError, OrderReportRowError } from '../reports';
import { StoreError, type StoreErrorCode } from '../store';

/** Raw system text goes here, never to the renderer. */
export type ErrorLog = (line: string) => void;
const defaultLog: ErrorLog = (line) => console.error(`[desk] ${line}`);

/** Each service error kind, by its one spelling on the contract. */
const SERVICE_KINDS: Record<ServiceErrorKind, DeskErrorKind> = {
  network: 'network',
  timeout: 'timeout',
  unauthorized: 'unauthorized',
  forbidden: 'forbidden',
  not_found: 'not-found',
  bad_request: 'bad-request',
  validation: 'validation',
  unknown_symbols: 'unknown-symbols',
  unexecuted_version: 'unexecuted-version',
  conflict: 'conflict',
  liquidate_only: 'liquidate-only',
  version_executed: 'version-executed',
  idempotency_mismatch: 'idempotency-mismatch',
  rate_limited: 'rate-limited',
  server: 'server',
  bad_response: 'bad-response',
  invalid_client: 'invalid-client',
  invalid_scope: 'invalid-scope',
  no_secret: 'no-secret',
  closed: 'closed',
  cancelled: 'cancelled',
};

const STORE_KINDS: Record<StoreErrorCode, DeskErrorKind> = {
  'not-sqlite': 'store-not-sqlite',
  'not-ours': 'store-not-ours',
  'newer-schema': 'store-newer-schema',
  'migration-failed': 'store-migration-failed',
  damaged: 'store-damaged',
  'read-only': 'store-read-only',
};

/** File-system and SQLite codes a manager can do something about. */
const SYSTEM_KINDS: Record<string, DeskErrorKind> = {
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
export function systemErrorKind(error: unknown): DeskErrorKind | null {
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

/**
 * Everything the desk throws reaches the renderer as a DeskError of a named kind, with a
 * message a manager understands; the service's own words and status are kept apart for the
 * "details" disclosure. Raw system text is logged here and never travels further.
 */
export function toDeskError(error: unknown, log: ErrorLog = defaultLog): DeskError {
  if (error instanceof DeskError) return error;
  if (error instanceof ServiceError) {
    return new DeskError({
      kind: SERVICE_KINDS[error.kind],
      // The sentence names what is wrong (the field, the coding); the parser's words stay in
      // the details.
      message: error.kind === 'bad_response' ? badResponseMessage(error) : error.message,
      ...(error.status !== undefined && { status: error.status }),
      ...(error.serviceMessage !== undefined && { serviceMessage: error.serviceMessage }),
      details: { ...error.details, ambiguous: error.ambiguous },
    } as DeskErrorData);
  }
  if (error instanceof InvalidDraftError) {
    return new DeskError({
      kind: 'invalid-draft',
      message: error.message,
      details: { messages: error.messages },
    });
  }
  if (error instanceof DraftExecutedError) {
    return new DeskError({
      kind: 'executed-before',
      message: error.message,
      details: { versionId: error.versionId },
    });
  }
  if (error instanceof ExecutionBlockedError) {
    return new DeskError({
      kind: 'execution-blocked',
      message: error.message,
      details: { state: error.state },
    });
  }
  if (error instanceof StoreError) {
    log(`data file: ${error.message}`);
    return deskError(STORE_KINDS[error.code]);
  }
  if (error instanceof KeychainFailure) {
    log(`keychain: ${describeCause(error.cause)}`);
    return deskError('keychain-failed');
  }
  if (error instanceof OrderReportRowError) {
    return new DeskError({
      kind: 'bad-response',
      message: error.message,
      details: { ambiguous: false },
    });
  }
  const systemKind = systemErrorKind(error);
  if (error instanceof OrderReportFileError) {
    // Its words name the folder and what to do; the raw system text is only in its cause.
    log(`report file: ${describeCause(error.cause)}`);
    if (systemKind) {
      return new DeskError({ kind: systemKind, message: error.message } as DeskErrorData);
    }
    return new DeskError({
      kind: 'internal',
      message: `The report could not be saved to ${error.path}.`,
    });
  }
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

/** "The service answered in a form the app does not understand: <what>." */
function badResponseMessage(error: ServiceError): string {
  const problem = error.details.problem;
  const general = DESK_ERROR_MESSAGES['bad-response'];
  if (!problem) return general;
  return `${general.replace(/\.$/, '')}: ${problem.replace(/\.$/, '')}.`;
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return `${cause.name}${typeof code === 'string' ? ` ${code}` : ''}: ${cause.message}`;
  }
  return String(cause);
}

export const notFound = (what: string) =>
  new DeskError({ kind: 'not-found', message: `${what} is not in this app.` });
