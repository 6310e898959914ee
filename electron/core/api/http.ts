import { Agent, util, type Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'undici/types/header';
import { contentCodings, decodeContent, UnreadableCoding } from './content-coding';
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
    const exchange = new Exchange(operation, resolve, reject, req);
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
      exchange,
    );
  });
}

/** The state of one request, as undici's dispatch handler (a class: no closures per request). */
class Exchange implements Dispatcher.DispatchHandler {
  private settled = false;
  private abort: ((reason: Error) => void) | undefined;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private cap = 0;
  private size = 0;
  private readonly chunks: Buffer[] = [];
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onCancel: (() => void) | undefined;

  constructor(
    readonly operationName: Operation,
    private readonly resolve: (response: HttpResponse) => void,
    private readonly reject: (error: ServiceError) => void,
    private readonly req: HttpRequest,
  ) {
    this.timer = setTimeout(expire, req.timeoutMs, this);
    if (req.signal) {
      const signal = req.signal;
      this.onCancel = () =>
        this.stop(cancelledError(operationName, signal.reason ?? new Error('cancelled')));
      signal.addEventListener('abort', this.onCancel, { once: true });
    }
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    // Past its deadline or cancelled while it waited for a connection: never written.
    if (this.settled) abort(new Error('The request ended before it was sent'));
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    if (statusCode < 200) return true; // informational: the answer is still to come
    this.status = statusCode;
    this.headers = parseHeaders(rawHeaders) as IncomingHttpHeaders;
    const ok = statusCode < 300;
    this.cap = ok ? SUCCESS_BODY_CAP : ERROR_BODY_CAP;
    if (ok && Number(this.headers['content-length']) > this.cap)
      this.stop(tooLarge(this.operationName, this.cap));
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    if (this.size + chunk.length <= this.cap) {
      this.chunks.push(chunk);
      this.size += chunk.length;
      return true;
    }
    if (this.status < 300) {
      this.stop(tooLarge(this.operationName, this.cap));
      return true;
    }
    // An error page is kept up to the cap; the rest of it is not read.
    this.chunks.push(chunk.subarray(0, this.cap - this.size));
    this.answer();
    this.abort?.(new Error('The rest of the answer is not read'));
    return true;
  }

  /** The whole answer arrived: it counts, however close to the deadline it came. */
  onComplete(): void {
    this.answer();
  }

  onError(e: Error): void {
    this.settle(transportError(e, this.operationName));
  }

  private answer(): void {
    if (this.settled) return;
    const codings = contentCodings(this.headers['content-encoding']);
    if (codings.length === 0) {
      this.settle(undefined, {
        status: this.status,
        headers: this.headers,
        text: decode(this.chunks),
      });
      return;
    }
    // Settled now (no deadline, no cancel while decoding); answered once the body is unpacked.
    this.settle(undefined);
    const { status, operationName } = this;
    const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const { 'content-encoding': _coding, 'content-length': _length, ...headers } = this.headers;
    decodeContent(bytes, codings, { maxBytes: this.cap, partial: status >= 300 }).then(
      (plain) => this.resolve({ status, headers, text: decode([plain]) }),
      (e: unknown) => {
        // An error page that does not unpack still has its status to go by.
        if (status >= 300) this.resolve({ status, headers, text: '' });
        else this.reject(unreadable(operationName, status, e));
      },
    );
  }

  /** Ends the exchange; without an error or a response, the caller answers later itself. */
  private settle(error: ServiceError | undefined, response?: HttpResponse): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.onCancel) this.req.signal?.removeEventListener('abort', this.onCancel);
    if (error) this.reject(error);
    else if (response) this.resolve(response);
  }

  /** Ends the request with `error`; whatever undici reports after that is not heard. */
  stop(error: ServiceError): void {
    this.settle(error);
    this.abort?.(error);
  }
}

function expire(exchange: Exchange): void {
  exchange.stop(
    deadlineError(exchange.operationName, new Error('The whole-request deadline passed')),
  );
}

/** The body as UTF-8 text, a leading byte order mark dropped (as undici's own text() does). */
function decode(chunks: Buffer[]): string {
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  const bom = bytes.length > 2 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  return bytes.toString('utf8', bom ? 3 : 0);
}

/** A 2xx body whose coding could not be undone: it may still have done what was asked. */
function unreadable(operation: Operation, status: number, e: unknown): ServiceError {
  const problem = e instanceof UnreadableCoding ? e.message : 'an answer that does not unpack';
  return new ServiceError({
    kind: 'bad-response',
    operation,
    status,
    message: `The service's answer could not be read: ${problem}`,
    details: { issues: [problem], problem },
    cause: e,
  });
}

function tooLarge(operation: Operation, cap: number): ServiceError {
  return new ServiceError({
    kind: 'bad-response',
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
