import type { Timeouts } from './http';
import type { RetryPolicy, WaitInfo } from './retry';

/** How a service client is made (client.ts) and what one read or exchange may be given. */

export interface ServiceClientOptions {
  baseUrl: string;
  clientId: string;
  /** Read from the keychain at each token request; never stored by the client. */
  getSecret: () => Promise<string>;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Told about every wait before a retry, and about a Retry-After too long to wait for. */
  onWait?: (info: WaitInfo) => void;
  /** For tests: the jitter source. */
  random?: () => number;
  /** An operation still unanswered after this long makes the service "slow" (default 5 s). */
  slowAfterMs?: number;
  /** Told when the first operation turns slow (true) and when no slow one is left (false). */
  onSlowChange?: (slow: boolean) => void;
}

/** Options of one read. */
export interface ReadOptions {
  /** Stops the read (and its retries); it then fails with kind `cancelled`. */
  signal?: AbortSignal;
}

/** One request of the client: how it is authorized and sent. */
export interface ExchangeOptions {
  /** False for the token request itself. */
  authorized?: boolean;
  body?: string;
  idempotencyKey?: string;
  signal?: AbortSignal;
}
