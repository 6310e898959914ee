/**
 * The one error that crosses from the main process to the renderer: a named kind the
 * screens can act on, a message a manager understands, and the service's own status
 * and words kept apart for a "details" disclosure. Raw system text (an errno line, a
 * D-Bus message) never travels here: the main process logs it. Plain TypeScript (no
 * zod), so the renderer can use it without bundling the schemas.
 */

/** Every kind of error, one spelling (kebab-case). */
export const DESK_ERROR_KINDS = [
  // Our own checks.
  'invalid-input',
  'invalid-draft',
  'secret-needed-for-new-address',
  'execution-blocked',
  'confirmation-outdated',
  'stale-not-acknowledged',
  'executed-before',
  'busy',
  'not-found',
  'internal',
  // The service, as the client saw it.
  'network',
  'timeout',
  'unauthorized',
  'forbidden',
  'bad-request',
  'validation',
  'unknown-symbols',
  'unexecuted-version',
  'conflict',
  'liquidate-only',
  'version-executed',
  'idempotency-mismatch',
  'rate-limited',
  'server',
  'bad-response',
  'invalid-client',
  'invalid-scope',
  'no-secret',
  'closed',
  'cancelled',
  // The data file.
  'store-not-sqlite',
  'store-not-ours',
  'store-newer-schema',
  'store-migration-failed',
  'store-damaged',
  'store-read-only',
  // Disks and folders.
  'disk-full',
  'no-permission',
  'read-only',
  'folder-missing',
  'file-busy',
  // The system keychain.
  'keychain-failed',
  // The renderer's own bridge to the main process.
  'host-unreachable',
  'no-access-key',
  'access-key-invalid',
] as const;

export type DeskErrorKind = (typeof DESK_ERROR_KINDS)[number];

const KIND_SET: ReadonlySet<string> = new Set(DESK_ERROR_KINDS);
export const isDeskErrorKind = (value: unknown): value is DeskErrorKind =>
  typeof value === 'string' && KIND_SET.has(value);

/** What the app knows of a service error besides its words. */
export interface ServiceErrorDetails {
  /** True when the service may have acted on the request (an execute that may have happened). */
  ambiguous: boolean;
  unknownSymbols?: string[];
  versionId?: string;
  missingScope?: string;
  missingScopes?: string[];
  retryAfterSeconds?: number;
  fields?: Record<string, string[]>;
  issues?: string[];
  requestSent?: boolean;
  code?: string;
}

type NoDetails = Record<string, never>;

/** The details each kind carries. */
export interface DeskErrorDetailsByKind {
  'invalid-input': { issues?: { path: string[]; message: string }[] };
  'invalid-draft': { messages: string[] };
  'execution-blocked': { state: string };
  'confirmation-outdated': NoDetails;
  'stale-not-acknowledged': NoDetails;
  'executed-before': { versionId: string };
  busy: NoDetails;
  'not-found': Partial<ServiceErrorDetails>;
  internal: NoDetails;
  network: ServiceErrorDetails;
  timeout: ServiceErrorDetails;
  unauthorized: Partial<ServiceErrorDetails>;
  forbidden: Partial<ServiceErrorDetails>;
  'bad-request': ServiceErrorDetails;
  validation: ServiceErrorDetails;
  'unknown-symbols': ServiceErrorDetails;
  'unexecuted-version': ServiceErrorDetails;
  conflict: ServiceErrorDetails;
  'liquidate-only': ServiceErrorDetails;
  'version-executed': ServiceErrorDetails;
  'idempotency-mismatch': ServiceErrorDetails;
  'rate-limited': ServiceErrorDetails;
  server: ServiceErrorDetails;
  'bad-response': ServiceErrorDetails;
  'invalid-client': ServiceErrorDetails;
  'invalid-scope': ServiceErrorDetails;
  'no-secret': ServiceErrorDetails;
  closed: ServiceErrorDetails;
  cancelled: ServiceErrorDetails;
  'store-not-sqlite': NoDetails;
  'store-not-ours': NoDetails;
  'store-newer-schema': NoDetails;
  'store-migration-failed': NoDetails;
  'store-damaged': NoDetails;
  'store-read-only': NoDetails;
  'disk-full': NoDetails;
  'no-permission': NoDetails;
  'read-only': NoDetails;
  'folder-missing': NoDetails;
  'file-busy': NoDetails;
  'keychain-failed': NoDetails;
  'host-unreachable': NoDetails;
  'no-access-key': NoDetails;
  'access-key-invalid': NoDetails;
  'secret-needed-for-new-address': { from: string; to: string };
}

/** The message each kind gets when nothing more precise is known. */
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
  busy: 'The same work is already under way: wait for it to end, or cancel it.',
  'not-found': 'This is not in the app.',
  internal: 'Something went wrong inside the app. Please try again.',
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

type DeskErrorCommon = { message: string; status?: number; serviceMessage?: string };

/** One case per kind, each with its own details. */
export type DeskErrorData = {
  [K in DeskErrorKind]: DeskErrorCommon & { kind: K; details?: DeskErrorDetailsByKind[K] };
}[DeskErrorKind];

/** The same, as it travels: details are read by key on the other side. */
export type DeskErrorWire = DeskErrorCommon & {
  kind: DeskErrorKind;
  details?: Record<string, unknown>;
};

export class DeskError extends Error {
  readonly kind: DeskErrorKind;
  readonly status: number | undefined;
  readonly serviceMessage: string | undefined;
  readonly details: Record<string, unknown> | undefined;
  constructor(data: DeskErrorData) {
    super(data.message);
    this.name = 'DeskError';
    this.kind = data.kind;
    this.status = data.status;
    this.serviceMessage = data.serviceMessage;
    this.details = data.details as Record<string, unknown> | undefined;
  }
  /** Rebuilds an error received as data (its details were typed where it was made). */
  static fromWire(data: DeskErrorWire): DeskError {
    return new DeskError(data as DeskErrorData);
  }
  toData(): DeskErrorWire {
    return {
      kind: this.kind,
      message: this.message,
      ...(this.status !== undefined && { status: this.status }),
      ...(this.serviceMessage !== undefined && { serviceMessage: this.serviceMessage }),
      ...(this.details !== undefined && { details: this.details }),
    };
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
  } as DeskErrorData);
}

/** The same check as views.ts's deskErrorData schema, by hand, for the renderer. */
export function isDeskErrorData(value: unknown): value is DeskErrorWire {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    isDeskErrorKind(v.kind) &&
    typeof v.message === 'string' &&
    (v.status === undefined || Number.isInteger(v.status)) &&
    (v.serviceMessage === undefined || typeof v.serviceMessage === 'string') &&
    (v.details === undefined ||
      (typeof v.details === 'object' && v.details !== null && !Array.isArray(v.details)))
  );
}
