import type { Agent } from 'undici';
import type { z } from 'zod';
import type { ExecuteRequest, Strategy, Version } from '../../../shared/domain/resources';
import {
  acceptedExecution,
  cancelled,
  checkExecuteInput,
  checkId,
  finalError,
  mayHaveActed,
  serviceAddress,
  type ExecuteResult,
} from './checks';
import { ServiceError, isServiceError, type Operation } from './errors';
import { errorFromResponse } from './error-mapping';
import { ACCEPT_ENCODING } from './content-coding';
import { withIncludes } from './location';
import { DEFAULT_TIMEOUTS, createAgent, send, type HttpResponse, type Timeouts } from './http';
import {
  DEFAULT_RETRY,
  planRetry,
  sleep,
  type RetryMode,
  type RetryPolicy,
  type WaitInfo,
} from './retry';
import { badResponse, parseBody, strategyResponse, versionResponse } from './schemas';
import { TokenManager, type TokenInfo } from './token-manager';
import type { ExchangeOptions, ReadOptions, ServiceClientOptions } from './client-options';

/**
 * The service client of one profile: token handling, the retry policy per operation, response
 * validation and error mapping. Reads retry; DELETE retries only when no answer came; execute
 * never retries (an unclear outcome is an error with `ambiguous: true`).
 */

const JSON_HEADERS = { accept: 'application/json', 'accept-encoding': ACCEPT_ENCODING } as const;
/** The query of a version read, by what it includes: none, orders, positions, both. */
const INCLUDE = ['', '?include=orders', '?include=positions', '?include=orders,positions'];

export class ServiceClient {
  readonly baseUrl: string;
  private readonly origin: string;
  /** The base URL's path without a trailing slash ('' for a bare origin). */
  private readonly prefix: string;
  private readonly agent: Agent;
  private readonly tokens: TokenManager;
  private readonly timeouts: Timeouts;
  private readonly policy: RetryPolicy;
  private readonly onWait?: (info: WaitInfo) => void;
  private readonly random: () => number;
  private readonly slowAfterMs: number;
  private readonly onSlowChange?: (slow: boolean) => void;
  /** Operations past the slow threshold and still unanswered. */
  private slowOperations = 0;
  private readHeaders: Record<string, string> | undefined;
  private closed = false;

  constructor(options: ServiceClientOptions) {
    const url = serviceAddress(options.baseUrl);
    this.origin = url.origin;
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.baseUrl = this.origin + this.prefix;
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.policy = { ...DEFAULT_RETRY, ...options.retry };
    this.onWait = options.onWait;
    this.random = options.random ?? Math.random;
    this.agent = createAgent(this.timeouts);
    this.slowAfterMs = options.slowAfterMs ?? 5_000;
    this.onSlowChange = options.onSlowChange;
    this.tokens = new TokenManager({
      clientId: options.clientId,
      getSecret: options.getSecret,
      postToken: (body) =>
        this.exchange('token', 'read', 'POST', `${this.prefix}/api/auth/token`, {
          authorized: false,
          body,
        }),
    });
  }

  /** A valid token (cached or new); the token itself never leaves the client. */
  getToken(): Promise<TokenInfo> {
    return this.tokens.info();
  }

  /**
   * Proves the credentials now: always requests a new token. Returns the granted scopes, or null
   * when the service did not say which.
   */
  async testConnection(): Promise<string[] | null> {
    this.tokens.clear();
    return (await this.tokens.info()).grantedScopes;
  }

  /** The access token held now, expired or not; only for redacting it from what is shown. */
  liveToken(): string | undefined {
    return this.tokens.liveToken();
  }

  /**
   * A failure of a call on this client with any echo of its token or client secret taken out
   * (see redactError); anything but a ServiceError is returned as it is.
   */
  redact(error: unknown): unknown {
    return error instanceof ServiceError ? this.tokens.redact(error) : error;
  }

  /** Scopes of the current token; null before the first token or when the service did not say. */
  grantedScopes(): string[] | null {
    return this.tokens.grantedScopes();
  }

  /** Whether a token is held: `grantedScopes()` null then means the service did not say. */
  hasToken(): boolean {
    return this.tokens.hasToken();
  }

  hasScope(scope: string): boolean {
    return this.tokens.grantedScopes()?.includes(scope) ?? false;
  }

  /** Token requests this client has sent. */
  get tokenRequestCount(): number {
    return this.tokens.requestCount;
  }

  async getStrategy(
    id: string,
    opts: { includePositions?: boolean } & ReadOptions = {},
  ): Promise<Strategy> {
    checkId(id, 'strategy');
    const path = `${this.prefix}/api/v1/strategies/${id}${opts.includePositions ? '?include=positions' : ''}`;
    const res = await this.exchange('getStrategy', 'read', 'GET', path, { signal: opts.signal });
    const data = this.parse(strategyResponse, res.text, 'getStrategy').data;
    if (opts.includePositions && !data.positions)
      throw badResponse('getStrategy', ['data.positions: missing although requested']);
    return data;
  }

  async getVersion(
    strategyId: string,
    versionId: string,
    opts: { orders?: boolean; positions?: boolean } = {},
  ): Promise<Version> {
    checkId(strategyId, 'strategy');
    checkId(versionId, 'version');
    const include = INCLUDE[(opts.orders ? 1 : 0) + (opts.positions ? 2 : 0)];
    const path = `${this.versionPath(strategyId, versionId)}${include}`;
    return this.readVersion(path, !!opts.orders, !!opts.positions);
  }

  /**
   * Follows a Location stored at acceptance (a path on this server, or an absolute URL here);
   * refuses another origin. Always read with the includes the app needs.
   */
  async getVersionAt(location: string): Promise<Version> {
    let url: URL;
    try {
      url = new URL(location, `${this.origin}/`);
    } catch {
      throw badResponse('getVersion', ['the version address is not a valid URL']);
    }
    if (url.origin !== this.origin)
      throw new ServiceError({
        kind: 'bad-response',
        operation: 'getVersion',
        message: `The version address points to another server (${url.origin}); it was not followed`,
      });
    return this.readVersion(withIncludes(url.pathname + url.search), true, true);
  }

  /**
   * Reads a version the app follows: at the address stored when it was accepted when that is a
   * path or a URL on this server, else (none, a relative one kept by an older version of the app,
   * another origin after the profile moved) at the interface's own path.
   */
  async followVersion(entry: {
    strategyId: string;
    versionId: string;
    location: string | null;
  }): Promise<Version> {
    const { strategyId, versionId, location } = entry;
    const followable =
      location !== null &&
      (location.startsWith('/') || /^https?:\/\//i.test(location)) &&
      URL.canParse(location, `${this.origin}/`) &&
      new URL(location, `${this.origin}/`).origin === this.origin;
    if (followable) return this.getVersionAt(location);
    return this.getVersion(strategyId, versionId, { orders: true, positions: true });
  }

  /** The interface's path of a version on this service (4.3), without a query. */
  private versionPath(strategyId: string, versionId: string): string {
    return `${this.prefix}/api/v1/strategies/${strategyId}/versions/${versionId}`;
  }

  /**
   * Create and execute a version. Never retried: a timeout, a lost connection or a 5xx is an
   * error with `ambiguous: true`; send the same idempotency key again to find out.
   */
  async executeVersion(
    strategyId: string,
    body: ExecuteRequest,
    idempotencyKey: string,
  ): Promise<ExecuteResult> {
    checkId(strategyId, 'strategy');
    const request = checkExecuteInput(body, idempotencyKey);
    const path = `${this.prefix}/api/v1/strategies/${strategyId}/versions/execute`;
    const res = await this.exchange('execute', 'never', 'POST', path, {
      body: JSON.stringify(request),
      idempotencyKey,
    });
    return acceptedExecution(res, {
      strategyId,
      requestUrl: this.origin + path,
      origin: this.origin,
      versionPath: (versionId) => this.versionPath(strategyId, versionId),
    });
  }

  /**
   * Delete an unexecuted version (204). A 404 after a lost answer means it is gone. After an
   * answer that leaves it unclear whether the delete happened (a 5xx, a connection lost, no
   * answer in time), the version is read: a 404 means the delete went through.
   */
  async deleteVersion(strategyId: string, versionId: string): Promise<void> {
    checkId(strategyId, 'strategy');
    checkId(versionId, 'version');
    const path = `${this.prefix}/api/v1/strategies/${strategyId}/versions/${versionId}`;
    let res: HttpResponse;
    try {
      res = await this.exchange('delete', 'delete', 'DELETE', path);
    } catch (e) {
      if (!(e instanceof ServiceError) || !mayHaveActed(e)) throw e;
      if (await this.isGone(strategyId, versionId)) return;
      throw e;
    }
    if (res.status !== 204 && res.status !== 200)
      throw badResponse('delete', [`status ${res.status} instead of 204 No Content`], {
        status: res.status,
      });
  }

  /** True only when the service says the version does not exist (404). */
  private async isGone(strategyId: string, versionId: string): Promise<boolean> {
    return this.getVersion(strategyId, versionId).then(
      () => false,
      (e: unknown) => isServiceError(e, 'not-found'),
    );
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.tokens.clear();
    await this.agent.close();
  }

  private parse<T>(schema: z.ZodType<T>, text: string, operation: Operation): T {
    return parseBody(schema, text, operation);
  }

  private async readVersion(path: string, orders: boolean, positions: boolean): Promise<Version> {
    const res = await this.exchange('getVersion', 'read', 'GET', path);
    const data = this.parse(versionResponse, res.text, 'getVersion').data;
    if ((orders && !data.orders) || (positions && !data.positions))
      throw badResponse('getVersion', ['data.orders or data.positions missing although requested']);
    return data;
  }

  /**
   * One operation: attempts, the 401 refresh-and-retry-once, the retry policy of `mode`.
   * Returns a 2xx response or throws a ServiceError. Counted as slow while it is unanswered
   * past the threshold.
   */
  private async exchange(
    operation: Operation,
    mode: RetryMode,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: ExchangeOptions = {},
  ): Promise<HttpResponse> {
    if (!this.onSlowChange) return this.attempts(operation, mode, method, path, options);
    let slow = false;
    const timer = setTimeout(() => {
      slow = true;
      if (++this.slowOperations === 1) this.onSlowChange?.(true);
    }, this.slowAfterMs);
    try {
      return await this.attempts(operation, mode, method, path, options);
    } finally {
      clearTimeout(timer);
      if (slow && --this.slowOperations === 0) this.onSlowChange?.(false);
    }
  }

  private async attempts(
    operation: Operation,
    mode: RetryMode,
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    { authorized = true, body, idempotencyKey, signal }: ExchangeOptions,
  ): Promise<HttpResponse> {
    let failed = 0;
    let reauthorized = false;
    let lostAnswer = false;
    for (;;) {
      if (this.closed)
        throw new ServiceError({
          kind: 'closed',
          operation,
          message: 'The service client was closed',
        });
      if (signal?.aborted) throw cancelled(operation);
      let auth: string | undefined;
      let headers: Record<string, string> = JSON_HEADERS;
      if (authorized) {
        auth = this.tokens.current() ?? (await this.tokens.authorization());
        headers = this.authorizedHeaders(auth);
      }
      if (body !== undefined) headers = { ...headers, 'content-type': 'application/json' };
      if (idempotencyKey !== undefined) headers = { ...headers, 'idempotency-key': idempotencyKey };

      let error: ServiceError;
      try {
        const res = await send(
          this.agent,
          {
            origin: this.origin,
            path,
            method,
            headers,
            body,
            timeoutMs: this.timeouts.requestMs,
            ...(signal && { signal }),
          },
          operation,
        );
        if (res.status >= 200 && res.status < 300) return res;
        // A DELETE whose first answer was lost may have succeeded: the version is gone.
        if (mode === 'delete' && lostAnswer && res.status === 404) return { ...res, status: 204 };
        if (res.status === 401 && authorized && !reauthorized) {
          reauthorized = true;
          this.tokens.invalidate(auth);
          continue;
        }
        error = errorFromResponse({
          operation,
          status: res.status,
          headers: res.headers,
          text: res.text,
          granted: this.tokens.grantedScopes() ?? undefined,
          // Only the execute request's: a token request's body holds the secret.
          ...(operation === 'execute' && body !== undefined && { requestBody: body }),
        });
      } catch (e) {
        if (!(e instanceof ServiceError)) throw e;
        error = e;
        if (isServiceError(e, 'network', 'timeout')) lostAnswer = true;
      }
      failed++;
      const delay = this.retryDelay(error, failed, mode, operation);
      if (delay === undefined) throw this.final(error, operation, auth);
      await sleep(delay, signal);
    }
  }

  /** The headers of a read with `auth`, built once per token (undici only reads them). */
  private authorizedHeaders(auth: string): Record<string, string> {
    if (this.readHeaders?.authorization !== auth)
      this.readHeaders = { ...JSON_HEADERS, authorization: auth };
    return this.readHeaders;
  }

  /** Milliseconds to wait before the next attempt, or undefined to give up. */
  private retryDelay(
    e: ServiceError,
    failed: number,
    mode: RetryMode,
    operation: Operation,
  ): number | undefined {
    const plan = planRetry(e, failed, mode, this.policy, this.random);
    if (plan) this.onWait?.({ operation, attempt: failed, ...plan });
    return plan?.delayMs;
  }

  /**
   * The error handed to the caller: operation, ambiguity for execute, the token it was sent
   * with and the client secret redacted.
   */
  private final(e: ServiceError, operation: Operation, sentWith?: string): ServiceError {
    return this.tokens.redact(finalError(e, operation), sentWith);
  }
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  return new ServiceClient(options);
}
