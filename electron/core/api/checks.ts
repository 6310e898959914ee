import {
  executeRequest,
  type ExecuteRequest,
  type Version,
} from '../../../shared/domain/resources';
import { ServiceError, type Operation } from './errors';
import type { HttpResponse } from './http';
import { isGuid } from './resource-readers';
import { badResponse, parseBody, versionResponse } from './schemas';

/**
 * What the client checks before sending and after an answer: ids, the execute request and its
 * key, the 202 of an execute, and which failures may have left the service having acted.
 */

export interface ExecuteResult {
  version: Version;
  /** The Location header exactly as the service sent it (follow it with getVersionAt). */
  location: string;
}

export function checkId(id: string, what: 'strategy' | 'version'): void {
  if (!isGuid(id))
    throw new ServiceError({
      kind: 'bad_request',
      message: `The ${what} id is not a valid id (expected a UUID)`,
    });
}

/** The request body as it will be sent; refuses a malformed body or key before sending. */
export function checkExecuteInput(body: ExecuteRequest, idempotencyKey: string): ExecuteRequest {
  const request = executeRequest.safeParse(body);
  if (!request.success)
    throw new ServiceError({
      kind: 'bad_request',
      operation: 'execute',
      message: `The execution request is malformed (${request.error.issues[0]?.message ?? 'invalid'})`,
    });
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
    throw new ServiceError({
      kind: 'bad_request',
      operation: 'execute',
      message: 'The execution key must be 1 to 255 visible ASCII characters',
    });
  return request.data;
}

/** The 2xx answer of an execute, checked; the service accepted something, so every failure is ambiguous. */
export function acceptedExecution(
  res: HttpResponse,
  strategyId: string,
  baseUrl: string,
  origin: string,
): ExecuteResult {
  const bad = (issue: string) =>
    badResponse('execute', [issue], { ambiguous: true, status: res.status });
  if (res.status !== 202) throw bad(`status ${res.status} instead of 202 Accepted`);
  const header = res.headers.location;
  const location = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!location) throw bad('no Location header');
  let url: URL | undefined;
  try {
    url = new URL(location, `${baseUrl}/`);
  } catch {
    url = undefined;
  }
  if (!url || url.origin !== origin) throw bad('the Location header is not on this server');
  let version: Version;
  try {
    version = parseBody(versionResponse, res.text, 'execute').data;
  } catch (e) {
    throw e instanceof ServiceError ? e.with({ ambiguous: true, status: res.status }) : e;
  }
  if (!version.orders || !version.positions) throw bad('data.orders or data.positions missing');
  if (version.strategy_id.toLowerCase() !== strategyId.toLowerCase())
    throw bad('the new version belongs to another strategy');
  return { version, location };
}

/** A failure after which the service may have done what was asked. */
export function mayHaveActed(e: ServiceError): boolean {
  if (e.kind === 'server') return true;
  return (e.kind === 'network' || e.kind === 'timeout') && e.details.requestSent !== false;
}

export function cancelled(operation: Operation): ServiceError {
  return new ServiceError({
    kind: 'cancelled',
    operation,
    message: 'Cancelled before the service answered',
  });
}
