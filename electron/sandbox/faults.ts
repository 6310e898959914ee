import { Readable } from 'node:stream';

/**
 * Fault injection: what the admin routes switch on to exercise the client's
 * failure handling (latency, 5xx, dropped connections, bad bodies, token
 * lifetime, rate limits, slow bodies, canned answers).
 */

export interface RateLimit {
  limit: number;
  window_s: number;
}

/** Answers sent a few bytes at a time: `bytes` every `interval_ms`, with a Content-Length. */
export interface Drip {
  bytes: number;
  interval_ms: number;
}

/** One answer given as is, instead of what the route would have said. */
export interface CannedReply {
  status: number;
  body: string;
  content_type: string;
}

export interface Faults {
  latency_ms: number;
  fail_next: number;
  /** Only requests of this method count for `fail_next` (null: every API request). */
  fail_next_method: 'GET' | 'POST' | 'DELETE' | null;
  /** 429 comes with Retry-After: 1 (a rate limit that names one request, as a batch's send). */
  fail_status: 429 | 500 | 502 | 503 | 504;
  fail_rate: number;
  drop_after_commit_next: number;
  /** A DELETE or an execute that commits, then answers `fail_status` with an empty body. */
  fail_after_commit_next: number;
  /** The next API request (not the token endpoint) gets this answer and does nothing. */
  reply_next: CannedReply | null;
  drip: Drip | null;
  malformed_json_next: number;
  wrong_types_next: number;
  token_lifetime_s: number;
  token_rate_limit: RateLimit | null;
  api_rate_limit: RateLimit | null;
  /** Every API answer's timestamps written at this UTC offset in minutes (null: in UTC). */
  timestamp_offset_minutes: number | null;
  /** Every API request naming one of these strategy ids gets `fail_status`, until cleared. */
  fail_strategies: string[];
  /**
   * Orders for these symbols fill only this fraction of their quantity (a thin market): the
   * rest fails, the order is FAILED with what did fill, until cleared. `{"NVDA": "0.5"}`.
   */
  partial_fills: Record<string, string>;
}

export const DEFAULT_TOKEN_LIFETIME_S = 3600;

export function defaultFaults(): Faults {
  return {
    latency_ms: 0,
    fail_next: 0,
    fail_next_method: null,
    fail_status: 503,
    fail_rate: 0,
    drop_after_commit_next: 0,
    fail_after_commit_next: 0,
    reply_next: null,
    drip: null,
    malformed_json_next: 0,
    wrong_types_next: 0,
    token_lifetime_s: DEFAULT_TOKEN_LIFETIME_S,
    token_rate_limit: null,
    api_rate_limit: null,
    timestamp_offset_minutes: null,
    fail_strategies: [],
    partial_fills: {},
  };
}

/**
 * A sliding-window limiter over the whole sandbox (not per client): at most
 * `limit` admitted requests in any `window_s` seconds. Refused requests do not count.
 */
export class SlidingWindow {
  private admitted: number[] = [];

  /** Admits the request (returns 0) or says how many seconds until the window frees. */
  take(rule: RateLimit, now: number = Date.now()): number {
    const windowMs = rule.window_s * 1000;
    this.admitted = this.admitted.filter((t) => t > now - windowMs);
    if (this.admitted.length < rule.limit) {
      this.admitted.push(now);
      return 0;
    }
    const oldest = this.admitted[this.admitted.length - rule.limit]!;
    return Math.max(1, Math.ceil((oldest + windowMs - now) / 1000));
  }

  clear(): void {
    this.admitted = [];
  }
}

/** True when the request's path names a strategy the `fail_strategies` fault makes fail. */
export function failsStrategy(faults: Faults, url: string): boolean {
  if (faults.fail_strategies.length === 0) return false;
  const path = url.split('?')[0]!.toLowerCase();
  return faults.fail_strategies.some((id) => path.includes(`/strategies/${id.toLowerCase()}`));
}

/** Takes one from a countdown fault; true when the fault applies to this request. */
export function consume(
  faults: Faults,
  key:
    | 'fail_next'
    | 'drop_after_commit_next'
    | 'fail_after_commit_next'
    | 'malformed_json_next'
    | 'wrong_types_next',
): boolean {
  if (faults[key] <= 0) return false;
  faults[key] -= 1;
  return true;
}

/**
 * The "wrong types" fault: the same JSON with every decimal string turned
 * into a number (cash_weight, fee_percent, quantities...), and booleans into strings.
 */
export function withWrongTypes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withWrongTypes);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withWrongTypes(v)]));
  }
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (typeof value === 'boolean') return String(value);
  return value;
}

/** The "malformed JSON" fault: the body cut in half, so it no longer parses. */
export function truncated(payload: string): string {
  return payload.slice(0, Math.max(1, Math.floor(payload.length / 2)));
}

/** Takes the canned answer, if one is set: it applies to one request only. */
export function takeReply(faults: Faults): CannedReply | null {
  const reply = faults.reply_next;
  faults.reply_next = null;
  return reply;
}

/** The "drip" fault: the body as a stream of `bytes`-sized pieces, `interval_ms` apart. */
export function dripped(
  payload: string,
  drip: Drip,
  sleep: (ms: number) => Promise<void>,
): Readable {
  const bytes = Buffer.from(payload, 'utf8');
  return Readable.from(
    (async function* () {
      for (let at = 0; at < bytes.length; at += drip.bytes) {
        if (at > 0) await sleep(drip.interval_ms);
        yield bytes.subarray(at, at + drip.bytes);
      }
    })(),
  );
}
