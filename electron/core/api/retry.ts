import { isServiceError, type ServiceError } from './errors';

/**
 * The retry policy: exponential backoff with full jitter, bounded attempts, and the service's
 * `Retry-After` honoured when it is not longer than the client is willing to wait.
 */

export interface RetryPolicy {
  /** Total attempts including the first (reads and the token request). */
  attempts: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseMs * 2^n)]. */
  baseMs: number;
  maxDelayMs: number;
  /** The longest Retry-After honoured; a longer one fails with a rate-limited error. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 30_000,
};

/** Why the client is waiting before another attempt; reported through `onWait`. */
export interface WaitInfo {
  operation: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  reason: 'rate-limited' | 'server' | 'network' | 'timeout';
  status?: number;
  /** The service's Retry-After, in seconds, when it sent one. */
  retryAfterSeconds?: number;
  /** True when the wait is longer than the policy allows: the client gives up instead. */
  givingUp?: boolean;
}

/** Full jitter: a uniformly random delay up to the capped exponential bound. */
export function backoffDelay(
  failedAttempts: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const bound = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return Math.floor(random() * bound);
}

/**
 * `Retry-After` in milliseconds: delta-seconds or an HTTP date (RFC 9110 10.2.3).
 * Undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const s = raw.trim();
  if (/^\d+$/.test(s)) return Number(s) * 1000;
  if (!/[a-z]/i.test(s)) return undefined;
  const at = Date.parse(s);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * How an operation may be retried: reads (and the token request) on no answer, 5xx and 429;
 * DELETE only when no answer came; execute never.
 */
export type RetryMode = 'read' | 'delete' | 'never';

/**
 * The wait before the next attempt after `failed` failed attempts, or undefined to stop now.
 * A Retry-After longer than the policy allows is returned with `givingUp: true` (not clamped).
 */
export function planRetry(
  e: ServiceError,
  failed: number,
  mode: RetryMode,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Omit<WaitInfo, 'operation' | 'attempt'> | undefined {
  if (mode === 'never' || failed >= policy.attempts) return undefined;
  if (mode === 'delete' && !(isServiceError(e, 'network') || e.details.requestSent === false))
    return undefined;
  if (mode === 'read' && !isServiceError(e, 'network', 'timeout', 'server', 'rate-limited'))
    return undefined;
  const reason = isServiceError(e, 'network', 'timeout', 'server') ? e.kind : 'rate-limited';
  const retryAfterSeconds = e.details.retryAfterSeconds;
  const base = { reason, status: e.status, retryAfterSeconds } as const;
  if (retryAfterSeconds === undefined)
    return { ...base, delayMs: backoffDelay(failed, policy, random) };
  const delayMs = retryAfterSeconds * 1000;
  return delayMs > policy.maxRetryAfterMs
    ? { ...base, delayMs, givingUp: true }
    : { ...base, delayMs };
}

/** Waits `ms`, or less when `signal` aborts (the caller checks the signal next). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
