import { Agent, util, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import { ServiceError, type Operation } from './errors';

const { parseHeaders } = util;

/**
 * The transport: one keep-alive undici Agent per client, one request under one deadline
 * (connecting, sending, the headers and the whole body), bodies read with a size cap. Failures
 * without an HTTP answer become ServiceErrors of kind network/timeout that say whether the
 * request may have reached the service; a caller's cancel becomes kind `cancelled`.
 */

export interface Timeouts {
  /** Opening the TCP/TLS connection. */
  connectMs: number;
  /** The whole request: connecting, sending, waiting for headers, reading the whole body. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = { connectMs: 5_000, requestMs: 30_000 };

/** Error bodies are read only this far (HTML pages, stack traces, garbage). */
export const ERROR_BODY_CAP = 64 * 1024;
/** A version with 1000 positions and orders is well under a megabyte. */
export const SUCCESS_BODY_CAP = 32 * 1024 * 1024;

export function createAgent(timeouts: Timeouts): Agent {
  return new Agent({
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.requestMs,
    bodyTimeout: timeouts.requestMs,
    // Shorter than common server idle timeouts, so a reused socket is rarely closed under us.
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
  });
}

export interface HttpRequest {
  origin: string;
  path: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /** The caller's cancel (a manager stopping a refresh). */
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text; for errors at most ERROR_BODY_CAP bytes of it. */
  text: string;
}

/**
 * One request through the Agent's own dispatch: the body is gathered as it arrives and decoded
 * once, without a stream per answer. One deadline covers everything (connecting, the headers,
 * the whole body): undici's own body timeout restarts with every byte, so a body dripping a byte
 * a second would never end. At the deadline or a caller's cancel the request is aborted, or, if
 * it still waits for a connection, dropped before it is written.
 */
export function send(agent: Agent, req: HttpRequest, operation: Operation): Promise<HttpResponse> {
  if (req.signal?.aborted) return Promise.reject(cancelledError(operation));
  return new Promise<HttpResponse>((resolve, reject) => {
    let settled = false;
    let abort: ((reason: Error) => void) | undefined;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    let cap = 0;
    let size = 0;
    const chunks: Buffer[] = [];

    const settle = (error: ServiceError | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCancel);
      if (error) reject(error);
      else resolve(response!);
    };
    /** Ends the request with `error`; whatever undici reports after that is not heard. */
    const stop = (error: ServiceError) => {
      settle(error);
      abort?.(error);
    };
    const timer = setTimeout(
      () => stop(deadlineError(operation, new Error('The whole-request deadline passed'))),
      req.timeoutMs,
    );
    const onCancel = () =>
      stop(cancelledError(operation, req.signal?.reason ?? new Error('cancelled')));
    req.signal?.addEventListener('abort', onCancel, { once: true });

    agent.dispatch(
      {
        origin: req.origin,
        path: req.path,
        method: req.method,
        headers: req.headers,
        body: req.body,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      },
      {
        onConnect(abortRequest: (reason: Error) => void) {
          abort = abortRequest;
          // Past its deadline or cancelled while it waited for a connection: never written.
          if (settled) abortRequest(new Error('The request ended before it was sent'));
        },
        onHeaders(statusCode: number, rawHeaders: Buffer[]) {
          if (statusCode < 200) return true; // informational: the answer is still to come
          status = statusCode;
          headers = parseHeaders(rawHeaders) as IncomingHttpHeaders;
          const ok = statusCode < 300;
          cap = ok ? SUCCESS_BODY_CAP : ERROR_BODY_CAP;
          if (ok && Number(headers['content-length']) > cap) stop(tooLarge(operation, cap));
          return true;
        },
        onData(chunk: Buffer) {
          if (settled) return true;
          if (size + chunk.length <= cap) {
            chunks.push(chunk);
            size += chunk.length;
            return true;
          }
          if (status < 300) {
            stop(tooLarge(operation, cap));
            return true;
          }
          // An error page is kept up to the cap; the rest of it is not read.
          chunks.push(chunk.subarray(0, cap - size));
          settle(undefined, { status, headers, text: decode(chunks) });
          abort?.(new Error('The rest of the answer is not read'));
          return true;
        },
        // The whole answer arrived: it counts, however close to the deadline it came.
        onComplete() {
          settle(undefined, { status, headers, text: decode(chunks) });
        },
        onError(e: Error) {
          settle(transportError(e, operation));
        },
      } as Dispatcher.DispatchHandler,
    );
  });
}

/** The body as UTF-8 text, a leading byte order mark dropped (as undici's own text() does). */
function decode(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

function tooLarge(operation: Operation, cap: number): ServiceError {
  return new ServiceError({
    kind: 'bad_response',
    operation,
    message: `The service answered in an unexpected form (an answer larger than ${cap} bytes)`,
  });
}

function deadlineError(operation: Operation, cause: unknown): ServiceError {
  return new ServiceError({
    kind: 'timeout',
    operation,
    message: 'The service did not answer in time',
    // Whether it was still connecting cannot be told apart here: assume it may have arrived.
    details: { requestSent: true },
    cause,
  });
}

function cancelledError(operation: Operation, cause?: unknown): ServiceError {
  return new ServiceError({
    kind: 'cancelled',
    operation,
    message: 'Cancelled before the service answered',
    details: { requestSent: cause !== undefined },
    ...(cause !== undefined && { cause }),
  });
}

const NOT_SENT = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUTS = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'ETIMEDOUT',
]);

function codeOf(e: unknown): string | undefined {
  const err = e as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] };
  const code = err?.code ?? err?.cause?.code ?? err?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A failure with no HTTP answer. `requestSent: false` only when it surely never left. */
export function transportError(e: unknown, operation: Operation): ServiceError {
  const code = codeOf(e);
  const name = (e as { name?: string })?.name;
  if (name === 'TimeoutError' || (code && TIMEOUTS.has(code))) {
    const beforeSending = code === 'UND_ERR_CONNECT_TIMEOUT';
    return new ServiceError({
      kind: 'timeout',
      operation,
      message: beforeSending
        ? 'The service could not be reached in time (connecting timed out)'
        : 'The service did not answer in time',
      details: { requestSent: !beforeSending, ...(code ? { code } : {}) },
      cause: e,
    });
  }
  const notSent = code !== undefined && NOT_SENT.has(code);
  return new ServiceError({
    kind: 'network',
    operation,
    message: notSent
      ? 'The service could not be reached (check the address and the network)'
      : 'The connection to the service was lost before it answered',
    details: { requestSent: !notSent, ...(code ? { code } : {}) },
    cause: e,
  });
}
