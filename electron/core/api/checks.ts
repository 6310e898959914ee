import {
  executeRequest,
  type ExecuteRequest,
  type Version,
} from '../../../shared/domain/resources';
import { ServiceError, isServiceError, type Operation } from './errors';
import type { HttpResponse } from './http';
import { followAddress } from './location';
import { isGuid } from './resource-readers';
import { badResponse, parseBody, versionResponse } from './schemas';

/**
 * What the client checks before sending and after an answer: ids, the execute request and its
 * key, the 202 of an execute, and which failures may have left the service having acted.
 */

export interface ExecuteResult {
  version: Version;
  /**
   * Where the version is followed: path and query on the profile's origin, with the includes the
   * app reads (the Location resolved against the execute request, or the interface's own path).
   */
  location: string;
  /** The Location header as the service sent it; null when it sent none. */
  givenLocation: string | null;
  /** Why the given Location is not what the app follows; null when it is. */
  locationNote: string | null;
}

export function checkId(id: string, what: 'strategy' | 'version'): void {
  if (!isGuid(id))
    throw new ServiceError({
      kind: 'bad-request',
      message: `The ${what} id is not a valid id (expected a UUID)`,
    });
}

/** The request body as it will be sent; refuses a malformed body or key before sending. */
export function checkExecuteInput(body: ExecuteRequest, idempotencyKey: string): ExecuteRequest {
  const request = executeRequest.safeParse(body);
  if (!request.success)
    throw new ServiceError({
      kind: 'bad-request',
      operation: 'execute',
      message: `The execution request is malformed (${request.error.issues[0]?.message ?? 'invalid'})`,
    });
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
    throw new ServiceError({
      kind: 'bad-request',
      operation: 'execute',
      message: 'The execution key must be 1 to 255 visible ASCII characters',
    });
  return request.data;
}

/** Where the execute request went and where its version lives, to read the 202 against. */
export interface ExecuteAddress {
  strategyId: string;
  /** The execute request's absolute URL (the base of a relative Location). */
  requestUrl: string;
  origin: string;
  /** The interface's path of a version of this strategy on the profile's service. */
  versionPath(versionId: string): string;
}

/**
 * The 2xx answer of an execute, checked; the service accepted something, so every failure is
 * ambiguous. The accepted version comes from the body: a Location the app does not follow as
 * given (another origin, none, not naming the version) never loses it (see location.ts).
 */
export function acceptedExecution(res: HttpResponse, address: ExecuteAddress): ExecuteResult {
  const bad = (issue: string) =>
    badResponse('execute', [issue], { ambiguous: true, status: res.status });
  if (res.status !== 202) throw bad(`status ${res.status} instead of 202 Accepted`);
  let version: Version;
  try {
    version = parseBody(versionResponse, res.text, 'execute').data;
  } catch (e) {
    throw e instanceof ServiceError ? e.with({ ambiguous: true, status: res.status }) : e;
  }
  if (!version.orders || !version.positions) throw bad('data.orders or data.positions missing');
  if (version.strategy_id.toLowerCase() !== address.strategyId.toLowerCase())
    throw bad('the new version belongs to another strategy');
  const header = res.headers.location;
  const follow = followAddress(Array.isArray(header) ? header[0] : header, {
    requestUrl: address.requestUrl,
    origin: address.origin,
    interfacePath: address.versionPath(version.id),
    versionId: version.id,
  });
  return {
    version,
    location: follow.location,
    givenLocation: follow.given,
    locationNote: follow.note,
  };
}

/** The profile's service address as a URL; refuses one the client cannot talk to. */
export function serviceAddress(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ServiceError({
      kind: 'bad-request',
      message: 'The service address is not a valid URL',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ServiceError({
      kind: 'bad-request',
      message: 'The service address must start with http:// or https://',
    });
  return url;
}

/**
 * The error handed to the caller of `operation` (the token's redaction aside): its operation,
 * and for an execute whether the version may have been executed all the same.
 */
export function finalError(e: ServiceError, operation: Operation): ServiceError {
  const out = e.operation === operation ? e : e.with({ operation });
  if (operation !== 'execute') return out;
  const mayHaveRun =
    mayHaveActed(e) ||
    // A success whose body could not be read: the service may have accepted it.
    (isServiceError(e, 'bad-response') && e.status !== undefined && e.status < 300);
  if (!mayHaveRun) return out;
  return out.with({
    ambiguous: true,
    message: `${e.message}. The version may or may not have been executed: check before trying again with the same execution key`,
  });
}

/** A failure after which the service may have done what was asked. */
export function mayHaveActed(e: ServiceError): boolean {
  if (isServiceError(e, 'server')) return true;
  return isServiceError(e, 'network', 'timeout') && e.details.requestSent !== false;
}

export function cancelled(operation: Operation): ServiceError {
  return new ServiceError({
    kind: 'cancelled',
    operation,
    message: 'Cancelled before the service answered',
  });
}
