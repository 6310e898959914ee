/**
 * The one error that crosses from the main process to the renderer: a named kind the
 * screens can act on, a message a manager understands, and the service's own status
 * and words kept apart for a "details" disclosure. Raw system text (an errno line, a
 * D-Bus message) never travels here: the main process logs it. Plain TypeScript (no
 * zod), so the renderer can use it without bundling the schemas: the kinds are in
 * error-kinds.ts, the wire schema and the details of each kind in error-wire.ts.
 */
import { SERVICE_ERROR_KINDS, isDeskErrorKind, type DeskErrorKind } from './kinds';
import type { DeskErrorDetails, DeskErrorDetailsByKind, DeskErrorWire } from './wire';

export * from './kinds';
export type {
  DeskErrorDetails,
  DeskErrorDetailsByKind,
  DeskErrorWire,
  ServiceErrorDetails,
} from './wire';

/** The message each kind gets when nothing more precise is known. */
/** The words of a failure of the app's own; apart so the renderer needs no other kind's words. */
export const INTERNAL_ERROR_MESSAGE = 'Something went wrong inside the app. Please try again.';

export const DESK_ERROR_MESSAGES: Record<DeskErrorKind, string> = {
  'invalid-input': 'Some of what was entered is not valid.',
  'invalid-draft': 'This draft cannot be executed as it is.',
  'execution-blocked': 'This execution cannot go ahead now.',
  'confirmation-outdated':
    'What executing does has changed since the confirmation was shown: nothing was sent; open it again.',
  'stale-not-acknowledged':
    'The strategy may have been changed elsewhere: acknowledge it before executing. Nothing was sent.',
  'executed-before':
    'This draft was already executed: choose "Execute again" to execute it once more.',
  'delete-not-confirmed':
    'A version is deleted only once the app has shown what it holds: nothing was deleted; look at it first.',
  busy: 'The same work is already under way: wait for it to end, or cancel it.',
  'not-found': 'This is not in the app.',
  'model-not-found': 'This model is not in the app.',
  'invalid-model': 'These rows cannot be saved as a model revision as they are.',
  restricted:
    'This execution breaks a restriction: override each symbol by name with a note, or change the target. Nothing was sent.',
  'approval-required': 'Needs an approval first.',
  'approval-outdated': 'The approval no longer matches.',
  'team-unavailable': 'The team store cannot be reached.',
  'team-refused': 'The team store refused this.',
  internal: INTERNAL_ERROR_MESSAGE,
  network: 'The service cannot be reached.',
  timeout: 'The service took too long to answer.',
  unauthorized: 'The service did not accept this profile’s credentials.',
  forbidden: 'This client is not allowed to do this.',
  'bad-request': 'The service refused the request.',
  validation: 'The service refused the values sent.',
  'unknown-symbols': 'The service does not know some of the symbols.',
  'unexecuted-version': 'The strategy has an unexecuted version that must be deleted first.',
  conflict: 'A rebalance of this strategy has not ended yet.',
  'liquidate-only': 'This strategy is liquidate-only: weights may only go down.',
  'version-executed': 'An executed version cannot be deleted.',
  'idempotency-mismatch': 'This execution was already sent with different content.',
  'rate-limited': 'The service asks to slow down; try again shortly.',
  server: 'The service had a problem answering.',
  'bad-response': 'The service answered in a form the app does not understand.',
  'invalid-client': 'The client id or secret is wrong.',
  'invalid-scope': 'This client may not ask for the scopes the app needs.',
  'no-secret': 'The client secret of this profile is not available: enter it again.',
  closed: 'The connection to the service was closed.',
  cancelled: 'Cancelled: the service was not waited for.',
  'store-not-sqlite': 'The app’s data file is not a database file.',
  'store-not-ours': 'The app’s data file belongs to another program.',
  'store-newer-schema': 'The app’s data file was written by a newer version of the app.',
  'store-migration-failed': 'The app’s data file could not be updated to this version.',
  'store-damaged':
    'The app’s data file is damaged: quit the app and restore the file from a backup, or move it aside to start afresh.',
  'store-read-only':
    'The app’s data file cannot be written: check its permissions, or that the disk is not read-only.',
  'disk-full': 'The disk is full: free some space and try again.',
  'no-permission': 'The app is not allowed to write there: choose another place.',
  'read-only': 'That place is read-only: choose another place.',
  'folder-missing': 'The folder does not exist any more: choose another place.',
  'file-busy': 'The file is open in another program: close it there and try again.',
  'keychain-failed': 'The system keychain did not answer: unlock it and try again.',
  'host-unreachable': 'The app’s window lost its connection to the app.',
  'no-access-key': 'This page was opened without the app’s access key.',
  'access-key-invalid':
    'This page’s access key is no longer valid: open the new address the app printed.',
  'secret-needed-for-new-address':
    'The service address changed: enter the client secret again, or confirm it may be sent there.',
};

/** An error of one of `kinds`, its details typed by its kind (see isKind). */
export type DeskErrorOfKind<E, K extends DeskErrorKind> = E & {
  readonly kind: K;
  readonly details?: DeskErrorDetailsByKind[K] | undefined;
};

export class DeskError extends Error {
  readonly kind: DeskErrorKind;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  /** Of the shape of its kind: read them through isKind, which says which shape. */
  readonly details: DeskErrorDetails | undefined;
  constructor(data: DeskErrorWire) {
    super(data.message);
    this.name = 'DeskError';
    this.kind = data.kind;
    this.status = data.status;
    this.serviceMessage = data.serviceMessage;
    this.details = data.details;
  }
  /** Rebuilds an error received as data (the host parsed it with the wire schema). */
  static fromWire(data: DeskErrorWire): DeskError {
    return new DeskError(data);
  }
  /**
   * An error received from the app as it arrived (an IPC rejection, an HTTP answer): a DeskError
   * when it is an error of a kind this window knows, else null. Only the envelope is looked at:
   * the details were parsed with the kind's schema by the host before they left it.
   */
  static fromUnknown(value: unknown): DeskError | null {
    if (value instanceof DeskError) return value;
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (
      !isDeskErrorKind(v.kind) ||
      typeof v.message !== 'string' ||
      (v.status !== undefined && !Number.isInteger(v.status)) ||
      (v.serviceMessage !== undefined && typeof v.serviceMessage !== 'string') ||
      (v.details !== undefined &&
        (typeof v.details !== 'object' || v.details === null || Array.isArray(v.details)))
    )
      return null;
    return new DeskError(v as DeskErrorWire);
  }
  toData(): DeskErrorWire {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== undefined && { status: this.status }),
      ...(this.serviceMessage !== undefined && { serviceMessage: this.serviceMessage }),
      ...(this.details !== undefined && { details: this.details }),
    } as DeskErrorWire;
  }
}

/** A kind's error with its standard message. */
export function deskError<K extends DeskErrorKind>(
  kind: K,
  details?: DeskErrorDetailsByKind[K],
): DeskError {
  return new DeskError({
    kind,
    message: DESK_ERROR_MESSAGES[kind],
    ...(details !== undefined && { details }),
  } as DeskErrorWire);
}

/**
 * Whether the error is of one of `kinds`, its details then typed by that kind: the one way to
 * tell kinds apart (`isKind(error, 'unknown-symbols') && error.details?.unknownSymbols`).
 */
export function isKind<E extends { readonly kind: string }, K extends DeskErrorKind>(
  error: E | null | undefined,
  ...kinds: readonly K[]
): error is DeskErrorOfKind<E, K> {
  return error != null && (kinds as readonly string[]).includes(error.kind);
}

/** The service may have acted on the request all the same (an execute that may have happened). */
export function serviceMayHaveActed(error: DeskError | null | undefined): boolean {
  return isKind(error, ...SERVICE_ERROR_KINDS) && error.details?.ambiguous === true;
}
