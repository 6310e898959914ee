import type { ServiceErrorDetails, ServiceErrorKind } from '../../../shared/errors';
import { holdsForm, redactForms, secretForms } from '../log/redact';

/**
 * One error type for everything the service client can fail with. `message` is written for a
 * strategy manager; `serviceMessage` keeps the service's own words; `details` carries what the
 * app needs to act (unknown symbols to mark, the version id to delete, the missing scope).
 * Its kinds are the app's one vocabulary (shared/errors/kinds.ts, SERVICE_ERROR_KINDS), the
 * same words the renderer sees. Never put a secret or a token in any of these fields.
 */

export type { ServiceErrorDetails, ServiceErrorKind };

export interface ServiceErrorInit {
  kind: ServiceErrorKind;
  message: string;
  status?: number;
  serviceMessage?: string;
  details?: ServiceErrorDetails;
  ambiguous?: boolean;
  operation?: Operation;
  cause?: unknown;
}

export type Operation = 'token' | 'getStrategy' | 'getVersion' | 'execute' | 'delete';

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind;
  readonly status?: number;
  readonly serviceMessage?: string;
  readonly details: ServiceErrorDetails;
  /** True when the service may have acted on the request (an execute that may have happened). */
  readonly ambiguous: boolean;
  readonly operation?: Operation;

  constructor(init: ServiceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ServiceError';
    this.kind = init.kind;
    this.status = init.status;
    this.serviceMessage = init.serviceMessage;
    this.details = init.details ?? {};
    this.ambiguous = init.ambiguous ?? false;
    this.operation = init.operation;
  }

  /** A copy with some fields changed (operation context, ambiguity). */
  with(change: Partial<ServiceErrorInit>): ServiceError {
    return new ServiceError({
      kind: this.kind,
      message: this.message,
      status: this.status,
      serviceMessage: this.serviceMessage,
      details: this.details,
      ambiguous: this.ambiguous,
      operation: this.operation,
      cause: this.cause,
      ...change,
    });
  }
}

/** A ServiceError; of one of `kinds` when any are named. */
export function isServiceError<K extends ServiceErrorKind = ServiceErrorKind>(
  e: unknown,
  ...kinds: readonly K[]
): e is ServiceError & { readonly kind: K } {
  return (
    e instanceof ServiceError &&
    (kinds.length === 0 || (kinds as readonly string[]).includes(e.kind))
  );
}

/**
 * The error with every secret the service echoed taken out, by exact value. Only the service's
 * words are searched: its message (serviceMessage), field errors, code and the parser's issues
 * for any occurrence; the values the app acts on (a version id, unknown symbols, missing scopes)
 * for being the secret itself. When none holds a secret the error is returned as it is: the app's
 * own words (a status, an id it quotes) are never rewritten because a short secret ("1") happens
 * to occur in them. When one does, the sentence built from those words is cleaned too.
 */
export function redactError(
  e: ServiceError,
  secrets: readonly (string | null | undefined)[],
): ServiceError {
  const forms = secretForms(secrets);
  if (forms.length === 0) return e;
  const exact = new Set(forms);
  const inText = (s: string | undefined) => s !== undefined && holdsForm(s, forms);
  const isSecret = (s: string | undefined) => s !== undefined && exact.has(s);
  const d = e.details;
  const echoed =
    inText(e.serviceMessage) ||
    inText(d.code) ||
    (d.issues ?? []).some(inText) ||
    Object.entries(d.fields ?? {}).some(([field, said]) => inText(field) || said.some(inText)) ||
    [d.versionId, d.missingScope, ...(d.unknownSymbols ?? []), ...(d.missingScopes ?? [])].some(
      isSecret,
    );
  if (!echoed) return e;
  const text = (s: string) => redactForms(s, forms);
  const details: ServiceErrorDetails = { ...d };
  if (d.code !== undefined) details.code = text(d.code);
  if (d.issues) details.issues = d.issues.map(text);
  if (d.fields)
    details.fields = Object.fromEntries(
      Object.entries(d.fields).map(([field, said]) => [text(field), said.map(text)]),
    );
  // A value that is the secret is dropped: "[redacted]" is no version id to act on.
  if (isSecret(d.versionId)) delete details.versionId;
  if (isSecret(d.missingScope)) delete details.missingScope;
  if (d.unknownSymbols) details.unknownSymbols = d.unknownSymbols.filter((s) => !isSecret(s));
  if (d.missingScopes) details.missingScopes = d.missingScopes.filter((s) => !isSecret(s));
  return e.with({
    message: text(e.message),
    ...(e.serviceMessage !== undefined && { serviceMessage: text(e.serviceMessage) }),
    details,
  });
}
