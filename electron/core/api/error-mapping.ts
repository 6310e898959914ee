import { parseErrorBody, SYMBOL, type ParsedErrorBody } from './error-body';
import { SAYS_UNKNOWN_SYMBOL, symbolsInText } from './error-shapes';
import { ServiceError, type Operation, type ServiceErrorKind } from './errors';
import { parseRetryAfter } from './retry';

/**
 * Turns a non-2xx answer into a ServiceError: its body read by error-body.ts, its status and
 * words classified into what the app can act on.
 */

export { parseErrorBody, symbolsInText, type ParsedErrorBody };

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
  /** The execute request's body: a refusal pointing at `positions[i]` names its symbol. */
  requestBody?: string;
}

export function errorFromResponse(ctx: ErrorContext): ServiceError {
  const { operation, status } = ctx;
  const body = parseErrorBody(ctx.text);
  const retryAfter = parseRetryAfter(ctx.headers['retry-after']);
  const retryAfterSeconds = retryAfter === undefined ? undefined : Math.ceil(retryAfter.ms / 1000);
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
      return make('invalid-client', 'The service refused the client id or secret');
    if (body.code === 'invalid_scope')
      return make('invalid-scope', 'The service refused the requested scopes for this client');
    if (body.code === 'invalid_request' || status === 400)
      return make('bad-request', `The service rejected the token request as malformed${said}`);
  }
  if (status === 429) {
    return make(
      'rate-limited',
      retryAfterSeconds === undefined
        ? 'The service is receiving too many requests; try again shortly'
        : retryAfter?.asked !== undefined
          ? `The service asks to wait longer than the app waits (Retry-After: ${retryAfter.asked}): it waits ${retryAfterSeconds} s at most before trying again`
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
      return make('not-found', notFoundMessage(operation));
    // A conflict is read like a 422 (the interface leaves the status of some refusals open).
    case 409:
    case 422:
      return unprocessable(ctx, body, make);
    default:
      return make('bad-request', `The service rejected the request (status ${status})${said}`);
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

/** `positions[3].symbol`, `data.positions.3`: the index of the position a field points at. */
const POSITION_FIELD = /(?:^|\.)positions(?:\.|\[)(\d+)\]?(?:\.symbol)?$/;

/**
 * Symbols a refusal points at without naming them (`source.pointer: /data/positions/3/symbol`,
 * "is not a known symbol"): read from the request that was sent.
 */
function symbolsPointedAt(body: ParsedErrorBody, requestBody: string | undefined): string[] {
  if (!requestBody) return [];
  let positions: unknown;
  try {
    positions = (JSON.parse(requestBody) as { data?: { positions?: unknown } }).data?.positions;
  } catch {
    return [];
  }
  if (!Array.isArray(positions)) return [];
  const found: string[] = [];
  for (const [field, messages] of Object.entries(body.fields)) {
    const index = POSITION_FIELD.exec(field)?.[1];
    if (index === undefined || !messages.some((m) => SAYS_UNKNOWN_SYMBOL.test(m))) continue;
    // A message that names its symbol is read for that name (see unknownSymbolsOf).
    if (messages.some((m) => symbolsInText(m).length > 0)) continue;
    if (!/symbol/i.test(field) && !messages.some((m) => /symbol/i.test(m))) continue;
    const symbol = (positions[Number(index)] as { symbol?: unknown } | undefined)?.symbol;
    if (typeof symbol === 'string' && SYMBOL.test(symbol)) found.push(symbol);
  }
  return found;
}

function unknownSymbolsOf(body: ParsedErrorBody, requestBody?: string): string[] {
  if (body.unknownSymbols?.length) return body.unknownSymbols;
  const texts = [
    ...Object.entries(body.fields)
      .filter(([f]) =>
        SYMBOL_FIELDS.some((s) => f === s || f.startsWith(`${s}.`) || f.startsWith(`${s}[`)),
      )
      .flatMap(([, messages]) => messages),
    ...(body.description ? [body.description] : []),
  ];
  return [...new Set([...texts.flatMap(symbolsInText), ...symbolsPointedAt(body, requestBody)])];
}

/**
 * A 422 or 409 is read for the cases the app can act on (unknown symbols, the unexecuted version,
 * a running rebalance, liquidate-only, a reused key, an executed version on delete), whatever the
 * body's shape. Anything else is passed on in the service's own words, without guessing what it
 * meant: a 422 as a refusal, a 409 as a conflict with the strategy's state.
 */
function unprocessable(ctx: ErrorContext, body: ParsedErrorBody, make: Make): ServiceError {
  const { operation, status } = ctx;
  // The words and the code (`unexecuted_version_exists` reads as words too).
  const text = [body.description ?? '', (body.code ?? '').replace(/[_.:-]+/g, ' ')]
    .join(' ')
    .toLowerCase();
  const idExtra = body.versionId ? { versionId: body.versionId } : {};
  const symbols = unknownSymbolsOf(body, ctx.requestBody);
  if (symbols.length) {
    return make(
      'unknown-symbols',
      `The service does not know these symbols: ${symbols.join(', ')}`,
      { unknownSymbols: symbols },
    );
  }
  if (/idempoten/.test(text) || body.fields.idempotency_key)
    return make(
      'idempotency-mismatch',
      'This execution key was already used with a different request; start a new execution',
    );
  if (operation === 'delete' && /executed/.test(text) && !/not (yet |been )?executed/.test(text))
    return make('version-executed', 'This version has been executed and cannot be deleted');
  if (/unexecuted|not (yet |been )?executed|must be deleted/.test(text)) {
    return make(
      'unexecuted-version',
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
      'liquidate-only',
      'This strategy is liquidate-only: weights can only be lowered or removed',
    );
  const words = [body.description ?? body.code, fieldText(body)].filter(Boolean).join('; ');
  if (status === 409)
    return make(
      'conflict',
      `The request conflicts with the state of the strategy${words ? `: ${words}` : ''}`,
      idExtra,
    );
  return make(
    'validation',
    words
      ? `The service refused the request (status ${status}): ${words}`
      : `The service refused the request (status ${status}) without saying why`,
    idExtra,
  );
}
