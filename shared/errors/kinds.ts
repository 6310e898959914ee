/**
 * The one vocabulary of error kinds (kebab-case), each with its meaning. The service client, the
 * data file, the desk and the renderer's bridge all name their failures with these words, so the
 * kind a failure has where it happens is the kind the manager's screen acts on. Plain TypeScript
 * (no zod, no imports), so the renderer can use it; the wire schema is in error-wire.ts.
 */

/** Refusals of the app's own checks. */
export const APP_ERROR_KINDS = [
  'invalid-input', // a call's input or a form's field is not valid (names what is wrong)
  'invalid-draft', // the draft cannot be executed as it is (its problems listed)
  'secret-needed-for-new-address', // a profile's address changed: the stored secret stays back
  'execution-blocked', // a retry or dismiss of an execution not in doubt
  'confirmation-outdated', // what was confirmed (or shown before a delete) changed since
  'stale-not-acknowledged', // a target in doubt that the manager did not acknowledge
  'executed-before', // the draft was executed already: only "Execute again" sends it once more
  'delete-not-confirmed', // a version deleted without having been shown (or acknowledged unread)
  'busy', // the same work is under way already (a second "Add many" of a profile)
  'model-not-found', // a model or a model revision not in this app
  'invalid-model', // a model revision's rows break the draft's rules (its problems listed)
  'restricted', // an execute breaking a restriction, not overridden by name with a note
  'approval-required', // the team asks an approval of this content by another member first
  'approval-outdated', // the approval no longer matches (changed, holdings moved, expired, used)
  'team-unavailable', // the team store cannot be reached, and this action needs it
  'team-refused', // the team store refused the action (a role it lacks, a claim held elsewhere)
  'internal', // a failure of the app itself: logged, shown in plain words only
] as const;

/** The service's failures as its client sees them (ServiceError in the core). */
export const SERVICE_ERROR_KINDS = [
  'network', // no answer: connection refused, reset, closed
  'timeout', // connecting or the answer took too long
  'unauthorized', // 401 on a resource, even after a fresh token
  'forbidden', // 403: a scope is missing (also: an IPC call from outside the app's window)
  'not-found', // 404 (also: an id not in this app)
  'bad-request', // 400, or another 4xx the client does not expect, or a request it refused to send
  'validation', // 422: weights or the request's shape refused
  'unknown-symbols', // 422: symbols the service does not recognize
  'unexecuted-version', // 422/409: an unexecuted version must be deleted first
  'conflict', // 422/409: a rebalance of the strategy has not ended yet
  'liquidate-only', // 422: a liquidate-only strategy's weights may only go down
  'version-executed', // 422 on delete: an executed version cannot be deleted
  'idempotency-mismatch', // 422: the execution key was used before with another request
  'rate-limited', // 429, or a Retry-After longer than the client waits
  'server', // 5xx
  'bad-response', // an answer without the documented form (or a report row the app cannot use)
  'invalid-client', // token endpoint: wrong client id or secret
  'invalid-scope', // token endpoint: a scope this client may not ask for
  'no-secret', // the profile's client secret could not be read
  'closed', // the service client was closed
  'cancelled', // the caller stopped waiting (a read the manager cancelled)
] as const;

/** Why the data file could not be opened (StoreError in the core). */
export const STORE_ERROR_KINDS = [
  'store-not-sqlite', // not a database file
  'store-not-ours', // a database of another program
  'store-newer-schema', // written by a newer version of the app
  'store-migration-failed', // could not be brought to this version's schema
  'store-damaged', // damaged pages
  'store-read-only', // cannot be written
] as const;

/** Disks and folders, by the system's or SQLite's code. */
export const SYSTEM_ERROR_KINDS = [
  'disk-full', // ENOSPC, EDQUOT, SQLITE_FULL
  'no-permission', // EACCES, EPERM, SQLITE_PERM, SQLITE_AUTH
  'read-only', // EROFS, SQLITE_READONLY
  'folder-missing', // ENOENT, ENOTDIR, SQLITE_CANTOPEN
  'file-busy', // EBUSY, SQLITE_BUSY, SQLITE_LOCKED
  'keychain-failed', // the system keychain did not answer (not: it holds no secret)
] as const;

/** The renderer's own bridge to the app (the browser host). */
export const BRIDGE_ERROR_KINDS = [
  'host-unreachable', // nothing answers at the app's address
  'no-access-key', // the page was opened without its access key
  'access-key-invalid', // the app was restarted with another key
] as const;

/** Every kind of error, one spelling. */
export const DESK_ERROR_KINDS = [
  ...APP_ERROR_KINDS,
  ...SERVICE_ERROR_KINDS,
  ...STORE_ERROR_KINDS,
  ...SYSTEM_ERROR_KINDS,
  ...BRIDGE_ERROR_KINDS,
] as const;

export type DeskErrorKind = (typeof DESK_ERROR_KINDS)[number];
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];
export type StoreErrorKind = (typeof STORE_ERROR_KINDS)[number];
export type SystemErrorKind = (typeof SYSTEM_ERROR_KINDS)[number];

const KIND_SET: ReadonlySet<string> = new Set(DESK_ERROR_KINDS);
export const isDeskErrorKind = (value: unknown): value is DeskErrorKind =>
  typeof value === 'string' && KIND_SET.has(value);

const SERVICE_KIND_SET: ReadonlySet<string> = new Set(SERVICE_ERROR_KINDS);

/**
 * A kind as written down earlier, in today's word: the service client once spelled its kinds in
 * snake_case (`not_found`, `unexecuted_version`). Text written then is never rewritten (an
 * activity entry is hashed as stored); it is read with this. Anything else is returned as it is.
 */
export function kindInTodaysWords(written: string): string {
  if (KIND_SET.has(written)) return written;
  const kebab = written.replace(/_/g, '-');
  return SERVICE_KIND_SET.has(kebab) ? kebab : written;
}
