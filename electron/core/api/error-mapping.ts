import { ServiceError, type Operation, type ServiceErrorKind } from './errors';
import { parseRetryAfter } from './retry';

/**
 * Turns a non-2xx answer into a ServiceError. Two documented body formats are understood:
 * OAuth2 `{error, error_description}` and `{errors: {detail, <field>: [...]}}` (also a list of
 * `{field, message}`, and symbol lists beside the message); anything else
 * (HTML, text, empty, garbage) is tolerated and only its short plain text is kept.
 */

export interface ParsedErrorBody {
  /** OAuth2 `error` code, e.g. invalid_client, insufficient_scope. */
  code?: string;
  /** `error_description` or `errors.detail` or `message`. */
  description?: string;
  /** Other fields of `errors`, as arrays of strings. */
  fields: Record<string, string[]>;
  unknownSymbols?: string[];
  versionId?: string;
  scope?: string;
}

const MAX_TEXT = 300;

function short(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > MAX_TEXT ? `${t.slice(0, MAX_TEXT)}…` : t;
}

function asStrings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v))
    return v.filter((x) => typeof x === 'string' || typeof x === 'number').map(String);
  return [];
}

/** A symbol named in running text: upper case as the app sends it (AAPL, BRK.B). */
const SYMBOL = /^[A-Z0-9][A-Z0-9.\-/]{0,19}$/;

/** Field errors, nested ones (`{data: {positions: [...]}}`) under a dotted name. */
function collectFields(fields: Record<string, string[]>, key: string, value: unknown): void {
  // A list of objects (`positions: [{symbol: [...]}]`): each item under its index.
  if (Array.isArray(value) && value.some((v) => v && typeof v === 'object')) {
    value.forEach((item, i) => collectFields(fields, `${key}.${i}`, item));
    return;
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [inner, v] of Object.entries(value as Record<string, unknown>))
      collectFields(fields, `${key}.${inner}`, v);
    return;
  }
  const list = asStrings(value);
  if (list.length) fields[key] = list.map(short);
}

/**
 * Symbols named in words: "unknown symbols: FOO, BAR", "does not recognize the symbol FOO",
 * "symbols not found: FOO". Empty when the text names none.
 */
export function symbolsInText(text: string): string[] {
  const m =
    /\b(?:unknown|unrecogni[sz]ed|invalid|not recogni[sz]ed|does not recogni[sz]e(?: the| these)?)\s+symbols?\b\s*:?\s*(.+)$/i.exec(
      text,
    ) ?? /\bsymbols?\s+(?:not found|not recogni[sz]ed|unknown)\s*:?\s*(.+)$/i.exec(text);
  if (!m) return [];
  const names = m[1]!
    .replace(/[.;]\s*$/, '')
    .split(/\s*,\s*|\s+and\s+|\s+/)
    .map((s) => s.replace(/^["'`]|["'`]$/g, ''))
    .filter(Boolean);
  return names.length > 0 && names.every((n) => SYMBOL.test(n)) ? names : [];
}

export function parseErrorBody(text: string): ParsedErrorBody {
  const out: ParsedErrorBody = { fields: {} };
  const trimmed = text.trim();
  if (!trimmed) return out;
  let json: unknown;
  if (trimmed.startsWith('{')) {
    try {
      json = JSON.parse(trimmed);
    } catch {
      json = undefined;
    }
  }
  if (json === undefined || json === null || typeof json !== 'object' || Array.isArray(json)) {
    // Plain text may say something useful; markup and binary noise do not.
    if (!/^[<{[]/.test(trimmed) && /[a-z]/i.test(trimmed) && /^[\x20-\x7e\s]+$/.test(trimmed))
      out.description = short(trimmed);
    return out;
  }
  const body = json as Record<string, unknown>;
  if (typeof body.error === 'string') out.code = body.error;
  if (typeof body.error_description === 'string') out.description = short(body.error_description);
  if (typeof body.scope === 'string') out.scope = body.scope;
  const errors = body.errors;
  if (errors && typeof errors === 'object' && !Array.isArray(errors)) {
    for (const [key, value] of Object.entries(errors as Record<string, unknown>)) {
      if (key === 'detail') {
        if (typeof value === 'string') out.description ??= short(value);
      } else if (key === 'version_id') {
        if (typeof value === 'string' && value) out.versionId = value;
      } else if (key === 'symbols' && asStrings(value).every((v) => /^\S+$/.test(v))) {
        // A list of names; a list of sentences is read like any field's messages.
        out.unknownSymbols = asStrings(value);
      } else {
        collectFields(out.fields, key, value);
      }
    }
  } else if (Array.isArray(errors)) {
    const list = asStrings(errors);
    if (list.length) out.description ??= short(list.join('; '));
    // `[{field, message}]`: each message under its field (or its index).
    errors.forEach((item, i) => {
      if (!item || typeof item !== 'object' || Array.isArray(item)) return;
      const { field, message } = item as Record<string, unknown>;
      if (typeof message === 'string') {
        const key = typeof field === 'string' && field ? field : String(i);
        out.fields[key] = [...(out.fields[key] ?? []), short(message)];
      } else collectFields(out.fields, String(i), item);
    });
  }
  // A list of names beside the message: `{symbols: [...]}`, `{unknown_symbols: [...]}`.
  for (const key of ['unknown_symbols', 'symbols'] as const) {
    const names = asStrings(body[key] ?? (errors as Record<string, unknown> | undefined)?.[key]);
    if (!out.unknownSymbols && names.length && names.every((v) => SYMBOL.test(v)))
      out.unknownSymbols = names;
  }
  if (!out.description && typeof body.message === 'string') out.description = short(body.message);
  if (!out.description && typeof body.detail === 'string') out.description = short(body.detail);
  // Nothing in a known place: the body itself is the service's own words.
  if (!out.description && !out.code && Object.keys(out.fields).length === 0 && !out.unknownSymbols)
    out.description = short(trimmed);
  return out;
}

/** The `scope` parameter of an RFC 6750 `WWW-Authenticate: Bearer ...` header. */
export function scopeFromWwwAuthenticate(
  header: string | string[] | undefined,
): string | undefined {
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (!value) return undefined;
  const m = /\bscope\s*=\s*(?:"([^"]*)"|([^\s,]+))/i.exec(value);
  return (m?.[1] ?? m?.[2])?.trim() || undefined;
}

const SCOPE_IN_TEXT = /\b(strateg(?:y_versions|ies):[a-z_]+)\b/g;

export interface ErrorContext {
  operation: Operation;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** Scopes the current token was granted, to tell which of the required ones is missing. */
  granted?: readonly string[];
}

export function errorFromResponse(ctx: ErrorContext): ServiceError {
  const { operation, status } = ctx;
  const body = parseErrorBody(ctx.text);
  const retryAfterMs = parseRetryAfter(ctx.headers['retry-after']);
  const retryAfterSeconds = retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000);
  const base = {
    status,
    operation,
    // The service's own words: its description, or its field errors when it gave only those.
    serviceMessage: body.description ?? (fieldText(body) || undefined),
    details: {
      ...(body.code ? { code: body.code } : {}),
      ...(Object.keys(body.fields).length ? { fields: body.fields } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    },
  };
  const make = (kind: ServiceErrorKind, message: string, extra = {}) =>
    new ServiceError({ ...base, kind, message, details: { ...base.details, ...extra } });
  const said = body.description ? `: ${body.description}` : '';

  if (operation === 'token') {
    if (body.code === 'invalid_client' || status === 401)
      return make('invalid_client', 'The service refused the client id or secret');
    if (body.code === 'invalid_scope')
      return make('invalid_scope', 'The service refused the requested scopes for this client');
    if (body.code === 'invalid_request' || status === 400)
      return make('bad_request', `The service rejected the token request as malformed${said}`);
  }
  if (status === 429) {
    return make(
      'rate_limited',
      retryAfterSeconds === undefined
        ? 'The service is receiving too many requests; try again shortly'
        : `The service asks to wait ${retryAfterSeconds} s before trying again`,
    );
  }
  if (status >= 500) {
    return make('server', `The service failed (status ${status}); try again later${said}`);
  }
  switch (status) {
    case 401:
      return make('unauthorized', 'The service did not accept the access token');
    case 403:
      return forbidden(ctx, body, make);
    case 404:
      return make('not_found', notFoundMessage(operation));
    case 409:
      return make('conflict', `The request conflicts with the state of the strategy${said}`, {
        ...(body.versionId ? { versionId: body.versionId } : {}),
      });
    case 422:
      return unprocessable(operation, body, make);
    default:
      return make('bad_request', `The service rejected the request (status ${status})${said}`);
  }
}

type Make = (kind: ServiceErrorKind, message: string, extra?: object) => ServiceError;

function forbidden(ctx: ErrorContext, body: ParsedErrorBody, make: Make): ServiceError {
  const named = [
    body.scope,
    scopeFromWwwAuthenticate(ctx.headers['www-authenticate']),
    body.description,
  ]
    .filter((s): s is string => !!s)
    .flatMap((s) => [...s.matchAll(SCOPE_IN_TEXT)].map((m) => m[1]!));
  const required = [...new Set(named)];
  // The header may list every scope the operation needs; the missing ones are those not granted.
  const missing = ctx.granted ? required.filter((s) => !ctx.granted!.includes(s)) : required;
  const scopes = missing.length ? missing : required;
  if (!scopes.length) return unnamedScope(ctx, make);
  const message =
    scopes.length === 1
      ? `This client lacks the scope ${scopes[0]}`
      : `This client lacks the scopes ${scopes.join(', ')}`;
  return make('forbidden', message, { missingScope: scopes[0], missingScopes: scopes });
}

/** What each operation needs by the interface (5.6; reading a strategy: the scope it lists). */
const NEEDED: Partial<Record<Operation, { scopes: string[]; what: string }>> = {
  getStrategy: { scopes: ['strategies:read'], what: 'reading a strategy' },
  getVersion: { scopes: ['strategy_versions:read'], what: 'reading a version' },
  execute: {
    scopes: ['strategy_versions:create', 'strategy_versions:execute'],
    what: 'executing',
  },
  delete: { scopes: ['strategy_versions:delete'], what: 'deleting a version' },
};

/**
 * A 403 naming no scope: the scopes the interface says the operation needs. Those the token was
 * not granted are missing; when the service never said what it granted, the app says so.
 */
function unnamedScope(ctx: ErrorContext, make: Make): ServiceError {
  const needed = NEEDED[ctx.operation];
  if (!needed)
    return make('forbidden', 'This client is not allowed to do this (the service named no scope)');
  const missing = ctx.granted ? needed.scopes.filter((s) => !ctx.granted!.includes(s)) : [];
  if (missing.length)
    return make(
      'forbidden',
      `This client lacks the ${missing.length === 1 ? 'scope' : 'scopes'} ${missing.join(', ')}`,
      { missingScope: missing[0], missingScopes: missing },
    );
  return make(
    'forbidden',
    `The service refused this and did not say which scope is missing: ${needed.what} needs ${needed.scopes.join(' and ')}`,
  );
}

function notFoundMessage(operation: Operation): string {
  switch (operation) {
    case 'getStrategy':
      return 'The service does not know this strategy (or it belongs to another organization)';
    case 'getVersion':
    case 'delete':
      return 'The service does not know this version (or it belongs to another strategy or organization)';
    case 'execute':
      return 'The service does not know this strategy (or it belongs to another organization)';
    default:
      return 'The service does not know this address';
  }
}

function fieldText(body: ParsedErrorBody): string {
  return Object.entries(body.fields)
    .map(([field, msgs]) => `${field}: ${msgs.join(', ')}`)
    .join('; ');
}

/** Where a service lists unknown symbols in words, when it does not give a `symbols` list. */
const SYMBOL_FIELDS = ['positions', 'data.positions', 'symbols', 'data', 'data.symbols'];

function unknownSymbolsOf(body: ParsedErrorBody): string[] {
  if (body.unknownSymbols?.length) return body.unknownSymbols;
  const texts = [
    ...Object.entries(body.fields)
      .filter(([f]) =>
        SYMBOL_FIELDS.some((s) => f === s || f.startsWith(`${s}.`) || f.startsWith(`${s}[`)),
      )
      .flatMap(([, messages]) => messages),
    ...(body.description ? [body.description] : []),
  ];
  return [...new Set(texts.flatMap(symbolsInText))];
}

/**
 * A 422 is read for the cases the app can act on (unknown symbols, the unexecuted version, a
 * running rebalance, liquidate-only, a reused key, an executed version on delete). Anything
 * else is passed on in the service's own words, without guessing what it meant.
 */
function unprocessable(operation: Operation, body: ParsedErrorBody, make: Make): ServiceError {
  const text = (body.description ?? '').toLowerCase();
  const idExtra = body.versionId ? { versionId: body.versionId } : {};
  const symbols = unknownSymbolsOf(body);
  if (symbols.length) {
    return make(
      'unknown_symbols',
      `The service does not know these symbols: ${symbols.join(', ')}`,
      { unknownSymbols: symbols },
    );
  }
  if (/idempoten/.test(text) || body.fields.idempotency_key)
    return make(
      'idempotency_mismatch',
      'This execution key was already used with a different request; start a new execution',
    );
  if (operation === 'delete' && /executed/.test(text) && !/not (yet |been )?executed/.test(text))
    return make('version_executed', 'This version has been executed and cannot be deleted');
  if (/unexecuted|not (yet |been )?executed|must be deleted/.test(text)) {
    return make(
      'unexecuted_version',
      body.versionId
        ? `An unexecuted version (id ${body.versionId}) must be deleted first`
        : 'An unexecuted version exists for this strategy, but the service did not say which',
      idExtra,
    );
  }
  if (/rebalanc|not (yet )?ended|in progress|still running|conflict/.test(text)) {
    return make(
      'conflict',
      body.versionId
        ? `A rebalance of this strategy (version ${body.versionId}) has not ended yet; wait until it ends`
        : 'A rebalance of this strategy has not ended yet; wait until it ends',
      idExtra,
    );
  }
  if (/liquidat/.test(text))
    return make(
      'liquidate_only',
      'This strategy is liquidate-only: weights can only be lowered or removed',
    );
  const words = [body.description ?? body.code, fieldText(body)].filter(Boolean).join('; ');
  return make(
    'validation',
    words
      ? `The service refused the request (status 422): ${words}`
      : 'The service refused the request (status 422) without saying why',
    idExtra,
  );
}
