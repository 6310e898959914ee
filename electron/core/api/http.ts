import { Agent } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import { ServiceError, type Operation } from './errors';

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

export async function send(
  agent: Agent,
  req: HttpRequest,
  operation: Operation,
): Promise<HttpResponse> {
  if (req.signal?.aborted) throw cancelledError(operation);
  // One deadline for everything (connecting, the headers, the whole body): undici's own body
  // timeout restarts with every byte, so a body dripping a byte a second would never end. The
  // timer ends the wait for the headers (the request is left to undici's own timeout, its late
  // answer thrown away) and destroys a body still arriving. Only a caller's cancel needs an
  // AbortSignal, which costs undici far more per request than a timer.
  const abort = req.signal ? new AbortController() : undefined;
  let expired = false;
  let body: Body | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      expired = true;
      abort?.abort();
      body?.destroy();
      reject(new Error('The whole-request deadline passed'));
    }, req.timeoutMs);
  });
  const onCancel = () => abort?.abort();
  req.signal?.addEventListener('abort', onCancel, { once: true });
  const pending = agent.request({
    origin: req.origin,
    path: req.path,
    method: req.method,
    headers: req.headers,
    body: req.body,
    ...(abort && { signal: abort.signal }),
    headersTimeout: req.timeoutMs,
    bodyTimeout: req.timeoutMs,
  });
  try {
    const res = await Promise.race([pending, deadline]);
    body = res.body;
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const cap = ok ? SUCCESS_BODY_CAP : ERROR_BODY_CAP;
    const length = Number(res.headers['content-length']);
    // The common case: a declared, acceptable length is read in one go.
    const text =
      length >= 0 && length <= cap
        ? await res.body.text()
        : await readBody(res.body, cap, ok, operation);
    // The whole answer arrived: it counts, however close to the deadline it came.
    return { status: res.statusCode, headers: res.headers, text };
  } catch (e) {
    if (expired) {
      // An answer that comes after all is not read: its connection is freed.
      pending.then(
        (late) => late.body.on('error', () => undefined).destroy(),
        () => undefined,
      );
      throw deadlineError(operation, e);
    }
    if (req.signal?.aborted) throw cancelledError(operation, e);
    if (e instanceof ServiceError) throw e;
    throw transportError(e, operation);
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onCancel);
  }
}

type Body = AsyncIterable<Buffer> & {
  text(): Promise<string>;
  destroy(err?: Error): unknown;
};

async function readBody(
  body: Body,
  cap: number,
  failIfLarger: boolean,
  operation: Operation,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size + chunk.length > cap) {
      if (failIfLarger) {
        body.destroy();
        throw new ServiceError({
          kind: 'bad_response',
          operation,
          message: `The service answered in an unexpected form (an answer larger than ${cap} bytes)`,
        });
      }
      chunks.push(chunk.subarray(0, cap - size));
      size = cap;
      break; // leaving the loop destroys the rest of the body
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
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
