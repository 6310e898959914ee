import { isServiceError, type ServiceError } from './errors';

/**
 * The one policy for every wait on the service (docs/client.md, "Waits"): the client's retries,
 * the profile's request budget (its pause after a 429: budget.ts), the book's read queue and a
 * batch's sends all read a 429 through rateLimitedWait. Exponential
 * backoff with full jitter and bounded attempts for failures; for a 429, the service's
 * `Retry-After`, parsed once (parseRetryAfter), never shorter than a floor that doubles with
 * each refusal in a row (`Retry-After: 0` does not spin) and never longer than one stated
 * maximum: a longer wait is cut to it, and the words say so.
 */

/** The longest wait the app takes on the service's word: a longer Retry-After is cut to this. */
export const MAX_RETRY_AFTER_MS = 30_000;

/**
 * The longest a timer may be set for: Node fires a longer setTimeout after 1 ms (2^31 - 1 ms is
 * about 24.8 days). No wait of the policy comes near it; sleep() holds to it whatever it is asked.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RetryPolicy {
  /**
   * Total attempts including the first: of a read (and the token request) in the client, and of
   * one strategy's read or one batch item's send answered 429 again and again.
   */
  attempts: number;
  /** Backoff base: attempt n waits a random time in [0, min(maxDelayMs, baseMs * 2^n)]. */
  baseMs: number;
  maxDelayMs: number;
  /** The longest wait after a 429 (MAX_RETRY_AFTER_MS; lower in tests). */
  maxRetryAfterMs: number;
  /** The shortest wait after a 429, doubled with each refusal in a row (up to maxDelayMs). */
  rateFloorMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: MAX_RETRY_AFTER_MS,
  rateFloorMs: 500,
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
  /** True when the service asked for a longer wait than the policy's maximum: cut to it. */
  capped?: boolean;
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

/** A `Retry-After` as read: the wait in milliseconds, at most MAX_RETRY_AFTER_MS. */
export interface RetryAfter {
  ms: number;
  /** The service asked for longer (the header as sent, cut short, to say so). */
  asked?: string;
}

/**
 * `Retry-After`: delta-seconds or an HTTP date (RFC 9110 10.2.3), parsed once and cut to
 * MAX_RETRY_AFTER_MS. Undefined when absent or unreadable (a negative number, words); a date in
 * the past is 0. However many digits, the result is a small finite number.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): RetryAfter | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const s = raw.trim();
  let ms: number;
  if (/^\d+$/.test(s)) ms = Number(s) * 1000;
  else if (/^[a-z0-9 ,:+-]+$/i.test(s) && /[a-z]/i.test(s)) {
    const at = Date.parse(s);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  } else return undefined;
  if (ms <= MAX_RETRY_AFTER_MS) return { ms };
  return { ms: MAX_RETRY_AFTER_MS, asked: s.length > 40 ? `${s.slice(0, 39)}…` : s };
}

/** A 429's wait, by rateLimitedWait. */
export interface RateLimitedWait {
  delayMs: number;
  /** The service asked for longer than the policy's maximum. */
  capped: boolean;
}

/**
 * The wait after the `refusals`-th 429 in a row, or undefined when the policy's attempts are
 * spent (the caller stops: "the service kept answering 429"). The service's Retry-After in
 * seconds (undefined when it gave none), never under the floor, never over the maximum.
 */
export function rateLimitedWait(
  retryAfterSeconds: number | undefined,
  refusals: number,
  policy: RetryPolicy,
): RateLimitedWait | undefined {
  if (refusals >= policy.attempts) return undefined;
  const floor = Math.min(policy.maxDelayMs, policy.rateFloorMs * 2 ** Math.max(0, refusals - 1));
  const asked = retryAfterSeconds === undefined ? 0 : retryAfterSeconds * 1000;
  const delayMs = Math.max(asked, floor);
  return delayMs > policy.maxRetryAfterMs
    ? { delayMs: policy.maxRetryAfterMs, capped: true }
    : { delayMs, capped: false };
}

/**
 * How an operation may be retried: reads (and the token request) on no answer, 5xx and 429;
 * DELETE only when no answer came; execute never.
 */
export type RetryMode = 'read' | 'delete' | 'never';

/**
 * The wait before the next attempt after `failed` failed attempts, or undefined to stop now.
 * A 429 waits as rateLimitedWait says (a Retry-After longer than the policy allows is cut).
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
  if (reason === 'rate-limited') {
    const wait = rateLimitedWait(retryAfterSeconds, failed, policy)!;
    return { ...base, delayMs: wait.delayMs, ...(wait.capped && { capped: true }) };
  }
  if (retryAfterSeconds === undefined)
    return { ...base, delayMs: backoffDelay(failed, policy, random) };
  return { ...base, delayMs: Math.min(retryAfterSeconds * 1000, policy.maxRetryAfterMs) };
}

/**
 * Waits `ms` (at most MAX_TIMER_MS), or less when `signal` aborts (the caller checks the signal
 * next).
 */
export function sleep(wantedMs: number, signal?: AbortSignal): Promise<void> {
  const ms = Math.min(Math.max(0, wantedMs), MAX_TIMER_MS);
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
