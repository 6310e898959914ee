/** The service client's public surface. */
export { ServiceClient, createServiceClient } from './client';
export type { ExecuteResult } from './checks';
export type { ReadOptions, ServiceClientOptions } from './client-options';
export { ServiceError, isServiceError } from './errors';
export type { Operation, ServiceErrorDetails, ServiceErrorKind } from './errors';
export {
  DEFAULT_RETRY,
  MAX_RETRY_AFTER_MS,
  backoffDelay,
  parseRetryAfter,
  planRetry,
  rateLimitedWait,
} from './retry';
export type { RateLimitedWait, RetryMode, RetryPolicy, WaitInfo } from './retry';
export { DEFAULT_TIMEOUTS } from './http';
export type { Timeouts } from './http';
export type { TokenInfo } from './token-manager';
export { parseErrorBody, scopeFromWwwAuthenticate } from './error-mapping';
