import { Listeners } from '../../../shared/listeners';
import { ServiceError } from './errors';

/**
 * The most requests of one profile at the service at once, whatever runs together (a refresh,
 * an Add many, a batch's review and send, tracking's polls, an execute). The service interface
 * states no limit on concurrent requests: it answers 429 with Retry-After when a client asks
 * too much. Four is what the book's refresh alone sent by default before the budget, the pace
 * the sandbox and the app's benches were tuned at; more flows running together now share it
 * instead of adding theirs (a refresh and a batch sent 4 + 4 + 2 at once).
 */
export const MAX_REQUESTS_AT_ONCE = 4;

/**
 * Whose request it is. `manager`: one the manager is waiting for (a confirmation, an execute
 * of a draft, a connection test); it starts before any waiting `bulk` one (the reads of many
 * strategies, a batch's sends, tracking's polls), so it waits at most for a request under way to
 * end, never behind a 1,000-strategy refresh.
 */
export type Lane = 'manager' | 'bulk';

interface Waiter {
  start(): void;
  /** Leaves the line, nothing sent (its signal aborted, or the budget closed). */
  leave(): void;
}

/**
 * One profile's request budget, the one pace of its requests whoever asks (the book's reads, a
 * batch's review and sends, an execute): at most `atOnce` requests at the service at once,
 * manager's requests first in line, then the rest in the order they asked. A 429 is paced here
 * and nowhere else: no request starts before the wait the retry policy gave
 * (profiles/connections.ts `pauseAfter429`, api/retry.ts: bounded), since the service's
 * Retry-After holds for the whole client, not only the request it refused; and the requests at
 * once are halved, climbing back one at a time as answers come (one more after as many answers
 * in a row as are let go at once), up to `limit`. Whoever shows a pace (the book's jobs, a
 * batch's summary) reads it here and hears its changes through `onPaced`. A waiting request
 * leaves the line when its signal aborts (kind `cancelled`, nothing sent).
 */
export class RequestBudget {
  private underway = 0;
  private readonly waiting: Record<Lane, Waiter[]> = { manager: [], bulk: [] };
  private pausedUntil = 0;
  private pauseTimer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private window: number;
  private answeredSinceChange = 0;
  /** Whoever waits for the pause to end (`pauseOver`). */
  private readonly pauseEnded = new Listeners<void>();
  /** Told when the pause or the requests at once change. */
  private readonly paced = new Listeners<void>();

  constructor(readonly limit: number = MAX_REQUESTS_AT_ONCE) {
    this.window = limit;
  }

  /** Requests of the profile at the service now. */
  get inFlight(): number {
    return this.underway;
  }

  /** The requests let go at once now: `limit`, or fewer after 429s. */
  get atOnce(): number {
    return this.window;
  }

  /** Hears every change of the pace (a pause, the requests at once); returns the unsubscribe. */
  onPaced(listener: () => void): () => void {
    return this.paced.add(listener);
  }

  /**
   * Resolves once no 429's pause holds (at once when none does), or when `signal` aborts. For
   * whoever must not start a step before the service takes requests again (a batch's item is
   * marked sent only just before its request leaves).
   */
  pauseOver(signal?: AbortSignal): Promise<void> {
    if (this.closed || signal?.aborted || this.pausedUntil <= Date.now()) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        leave();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const leave = this.pauseEnded.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** When requests may start again after a 429 (null when they may now). */
  get waitingUntil(): Date | null {
    return this.pausedUntil > Date.now() ? new Date(this.pausedUntil) : null;
  }

  /**
   * Resolves once the request may go to the service, with the function that gives its place
   * back (once it is answered, or failed); rejects with kind `cancelled` when `signal` aborts
   * first or the budget closes.
   */
  take(lane: Lane, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted || this.closed) return Promise.reject(notSent());
    const ahead = this.waiting.manager.length + (lane === 'bulk' ? this.waiting.bulk.length : 0);
    if (ahead === 0 && this.mayStart()) return Promise.resolve(this.started());
    return new Promise((resolve, reject) => {
      const line = this.waiting[lane];
      const aborted = () => {
        const at = line.indexOf(waiter);
        if (at >= 0) line.splice(at, 1);
        reject(notSent());
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', aborted);
          resolve(this.started());
        },
        leave: () => {
          signal?.removeEventListener('abort', aborted);
          reject(notSent());
        },
      };
      signal?.addEventListener('abort', aborted, { once: true });
      line.push(waiter);
      this.pump();
    });
  }

  /**
   * A 429 answered: half as many requests at once after it. Its wait is `pause`'s (the service
   * answered once, however many ask for a wait after it).
   */
  refused(): void {
    this.window = Math.max(1, Math.floor(this.window / 2));
    this.answeredSinceChange = 0;
    this.paced.emit();
  }

  /** After a 429, no request starts for `delayMs` (a shorter wait does not cut a longer one). */
  pause(delayMs: number): void {
    const until = Date.now() + Math.max(0, delayMs);
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.wakeAtPauseEnd();
    this.paced.emit();
  }

  /** A request was answered (not 429): one more at once after as many in a row as are let go. */
  answered(): void {
    if (this.window >= this.limit) return;
    if (++this.answeredSinceChange < this.window) return;
    this.window++;
    this.answeredSinceChange = 0;
    this.paced.emit();
    this.pump();
  }

  private wakeAtPauseEnd(): void {
    clearTimeout(this.pauseTimer);
    this.pauseTimer = setTimeout(() => this.pump(), Math.max(1, this.pausedUntil - Date.now()));
  }

  /** The desk is closing: nothing waiting will be sent. */
  close(): void {
    this.closed = true;
    clearTimeout(this.pauseTimer);
    for (const line of [this.waiting.manager, this.waiting.bulk])
      for (const waiter of line.splice(0)) waiter.leave();
    // Whoever waits for the pause is not woken to work on a closed desk.
    this.pauseEnded.clear();
    this.paced.clear();
  }

  private mayStart(): boolean {
    return !this.closed && this.underway < this.window && this.pausedUntil <= Date.now();
  }

  private started(): () => void {
    this.underway++;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.underway--;
      this.pump();
    };
  }

  private pump(): void {
    if (this.pausedUntil !== 0 && this.pausedUntil <= Date.now() && !this.closed) {
      // The pause is over: told once.
      this.pausedUntil = 0;
      this.pauseEnded.emit();
      this.paced.emit();
    }
    while (this.mayStart()) {
      const next = this.waiting.manager.shift() ?? this.waiting.bulk.shift();
      if (!next) return;
      next.start();
    }
    // A timer may fire a millisecond before the clock reaches the pause's end: with nothing at
    // the service to call pump again, the line would wait forever. Wake again at the end.
    // Its end is told even with nothing in line (a batch's item waiting in `pauseOver`, a job's pace).
    if (!this.closed && this.pausedUntil > Date.now()) this.wakeAtPauseEnd();
  }
}

function notSent(): ServiceError {
  return new ServiceError({
    kind: 'cancelled',
    message: 'Cancelled before the service was asked',
    details: { requestSent: false },
  });
}
