import { z } from 'zod';
import { DESK_ERROR_KINDS, type DeskErrorKind } from './kinds';

/**
 * An error as it crosses to the renderer: a kind, a message a manager understands, the service's
 * status and words, and details whose shape is the kind's own. The hosts parse every error they
 * answer with this schema (electron/transport/dispatch.ts), so a detail of the wrong shape is
 * found where it is made, not re-checked by the renderer. The renderer may not bundle zod: it
 * takes only the types from here (shared/errors/index.ts holds what it runs).
 */

// What the service said besides its words, on any answer.
const code = z.string();
const fields = z.record(z.string(), z.array(z.string()));
const retryAfterSeconds = z.number().nonnegative();
const requestSent = z.boolean();

/**
 * What the service client knows of a failure besides its words: `ServiceError.details` in the
 * core. Which of these a kind carries on the wire is in DESK_ERROR_DETAILS.
 */
export const serviceErrorDetails = z
  .object({
    /** OAuth2 `error` code or another machine-readable code from the body. */
    code,
    /** Per-field messages from a `{errors: {...}}` body, e.g. `{positions: ['...']}`. */
    fields,
    retryAfterSeconds,
    /** For network/timeout/cancelled: false when the request surely never reached the service. */
    requestSent,
    unknownSymbols: z.array(z.string()),
    versionId: z.string(),
    missingScope: z.string(),
    missingScopes: z.array(z.string()),
    /** Where the response failed its schema (bad-response). */
    issues: z.array(z.string()),
    /** What is wrong with an unreadable answer, in plain words naming the field (bad-response). */
    problem: z.string(),
  })
  .partial();
export type ServiceErrorDetails = z.infer<typeof serviceErrorDetails>;

/** Every service failure on the wire: whether the service may have acted, and what it said. */
const serviceFacts = {
  /** True when the service may have acted on the request (an execute that may have happened). */
  ambiguous: z.boolean(),
  code: code.optional(),
  fields: fields.optional(),
  retryAfterSeconds: retryAfterSeconds.optional(),
  requestSent: requestSent.optional(),
};
const service = z.strictObject(serviceFacts);
const none = z.strictObject({});

/** The details each kind carries: nothing else (a stray field is refused). */
export const DESK_ERROR_DETAILS = {
  'invalid-input': z.strictObject({
    issues: z.array(z.strictObject({ path: z.array(z.string()), message: z.string() })).optional(),
  }),
  'invalid-draft': z.strictObject({ messages: z.array(z.string()) }),
  'secret-needed-for-new-address': z.strictObject({ from: z.string(), to: z.string() }),
  'execution-blocked': z.strictObject({ state: z.string() }),
  'confirmation-outdated': none,
  'stale-not-acknowledged': none,
  'executed-before': z.strictObject({ versionId: z.string() }),
  'delete-not-confirmed': z.strictObject({
    reason: z.enum(['not-shown', 'unread-not-acknowledged']),
  }),
  busy: none,
  'model-not-found': none,
  'invalid-model': z.strictObject({ messages: z.array(z.string()) }),
  /** The symbols still to be overridden, each certain or possible. */
  restricted: z.strictObject({
    violations: z.array(
      z.strictObject({ symbol: z.string(), level: z.enum(['certain', 'possible']) }),
    ),
  }),
  'approval-required': none,
  'approval-outdated': none,
  'team-unavailable': none,
  'team-refused': none,
  internal: none,
  network: service,
  timeout: service,
  unauthorized: service,
  forbidden: z.strictObject({
    ...serviceFacts,
    /** The first of missingScopes, when the service or the interface named one. */
    missingScope: z.string().optional(),
    missingScopes: z.array(z.string()),
  }),
  'not-found': service,
  'bad-request': service,
  validation: z.strictObject({ ...serviceFacts, versionId: z.string().optional() }),
  'unknown-symbols': z.strictObject({ ...serviceFacts, unknownSymbols: z.array(z.string()) }),
  /** The version in the way; null when the service did not say which. */
  'unexecuted-version': z.strictObject({ ...serviceFacts, versionId: z.string().nullable() }),
  /** The version whose rebalance has not ended; null when the service did not say which. */
  conflict: z.strictObject({ ...serviceFacts, versionId: z.string().nullable() }),
  'liquidate-only': service,
  'version-executed': service,
  'idempotency-mismatch': service,
  'rate-limited': service,
  server: service,
  'bad-response': z.strictObject({
    ...serviceFacts,
    issues: z.array(z.string()).optional(),
    problem: z.string().optional(),
  }),
  'invalid-client': service,
  'invalid-scope': service,
  'no-secret': service,
  closed: service,
  cancelled: service,
  'store-not-sqlite': none,
  'store-not-ours': none,
  'store-newer-schema': none,
  'store-migration-failed': none,
  'store-damaged': none,
  'store-read-only': none,
  'disk-full': none,
  'no-permission': none,
  'read-only': none,
  'folder-missing': none,
  'file-busy': none,
  'keychain-failed': none,
  'host-unreachable': none,
  'no-access-key': none,
  'access-key-invalid': none,
} satisfies { [K in DeskErrorKind]: z.ZodType };

export type DeskErrorDetailsByKind = {
  [K in DeskErrorKind]: z.infer<(typeof DESK_ERROR_DETAILS)[K]>;
};
/** The details of some kind, not known which. */
export type DeskErrorDetails = DeskErrorDetailsByKind[DeskErrorKind];

const envelope = {
  message: z.string(),
  status: z.number().int().optional(),
  serviceMessage: z.string().optional(),
};
type Envelope = z.infer<z.ZodObject<typeof envelope>>;

/** One case per kind, each with its own details. */
export type DeskErrorWire = {
  [K in DeskErrorKind]: Envelope & { kind: K; details?: DeskErrorDetailsByKind[K] };
}[DeskErrorKind];

const variant = (kind: DeskErrorKind) =>
  z.object({ kind: z.literal(kind), ...envelope, details: DESK_ERROR_DETAILS[kind].optional() });

/**
 * The error as data, discriminated by kind. Each case is built from its kind's details above, so
 * the cases and DeskErrorWire agree by construction (the cast only restores what `map` forgets).
 */
export const deskErrorWire = z.discriminatedUnion(
  'kind',
  DESK_ERROR_KINDS.map(variant) as [ReturnType<typeof variant>, ...ReturnType<typeof variant>[]],
) as unknown as z.ZodType<DeskErrorWire>;
