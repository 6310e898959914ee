import type { Version, VersionStatus } from '../../../shared/domain/resources';
import { TERMINAL_VERSION_STATUSES } from '../../../shared/domain/resources';
import type { TrackingProblem } from '../../../shared/views';
import { sleep } from '../api/retry';

/** One version being followed until its rebalance ends. */
export interface TrackedVersion {
  profileId: string;
  strategyId: string;
  versionId: string;
  /** The execute response's Location, polled as given; null for an imported version (read by id). */
  location: string | null;
  status: VersionStatus | null;
}

/** What the manager is told about following a version, besides its status. */
export interface TrackingState {
  /** Why the last poll failed, in the manager's words; null once a poll succeeds again. */
  lastError: string | null;
  lastErrorAt: string | null;
  /** What the loop waits for before it polls again, if anything. */
  waitingFor: 'connection' | 'credentials' | null;
  /** False once tracking stopped for good (the version is gone): only "Check now" restarts it. */
  active: boolean;
}

type VersionRef = { profileId: string; strategyId: string; versionId: string };

export type TrackerEvent =
  | (VersionRef & {
      type: 'status-changed';
      previousStatus: VersionStatus | null;
      status: VersionStatus | null;
      version: Version;
      ended: boolean;
    })
  | (VersionRef & {
      type: 'poll-failed';
      message: string;
      /** False when tracking stopped for good (the version is gone, access was revoked). */
      willRetry: boolean;
    })
  /** The tracking state of a version changed (an error appeared or cleared, a wait began). */
  | (VersionRef & { type: 'tracking-changed'; state: TrackingState });

export interface TrackerDeps {
  /** Reads the version at its Location; throws on failure. */
  fetchVersion(entry: TrackedVersion, signal: AbortSignal): Promise<Version>;
  /** Stores every change before it is announced. */
  saveVersion(entry: TrackedVersion, version: Version): void;
  /** Resolves when the profile's service is reachable again (immediately when online). */
  waitUntilOnline(profileId: string, signal: AbortSignal): Promise<void>;
  /** Whether a polling failure is final (no point polling again), e.g. 404. */
  isFinalFailure(error: unknown): boolean;
  /**
   * Whether a failure may only mean the service has not caught up yet (a 404 from a replica
   * lagging behind the write): polling goes on for `lagWindowMs` before it counts as final.
   */
  mayBeLagging?(error: unknown): boolean;
  /** How long a version may stay unknown before following it stops (default 2 minutes). */
  lagWindowMs?: number;
  /** Milliseconds now, for the lag window (default Date.now). */
  clock?(): number;
  /**
   * Whether a failure needs the profile's address or secret to change (no secret in this
   * session, refused credentials): the loop then waits for that instead of polling in vain.
   */
  needsCredentials?(error: unknown): boolean;
  /** Resolves when the profile's address or secret changed, or after a while to look again. */
  waitForCredentials?(profileId: string, signal: AbortSignal): Promise<void>;
  describeFailure(error: unknown): string;
  onEvent(event: TrackerEvent): void;
  now?(): string;
  backoff?: Partial<Backoff>;
}

export interface Backoff {
  initialMs: number;
  factor: number;
  maxMs: number;
}

const CLEAN: TrackingState = { lastError: null, lastErrorAt: null, waitingFor: null, active: true };

const DEFAULT_BACKOFF: Backoff = { initialMs: 250, factor: 1.6, maxMs: 10_000 };

export const DEFAULT_LAG_WINDOW_MS = 120_000;

/** A span in words: "40 seconds", "1 minute", "5 minutes". */
function spanInWords(ms: number): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.round(seconds / 60);
  return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** One loop: its stop signal, and its current wait's, which "Check now" cuts short. */
interface Loop {
  controller: AbortController;
  wait: AbortController;
  /** Called after the loop's next poll attempt, whatever its outcome. */
  afterAttempt: Set<() => void>;
}

/** What the flows and the handlers use of the tracker: follow a version, poll it now, ask of it. */
export type Follower = Pick<VersionTracker, 'track' | 'checkNow' | 'followed'>;

/** The last failure of following a version, as its detail and its event show it. */
export function trackingProblemOf(state: TrackingState | null): TrackingProblem | null {
  return state && state.lastError !== null && state.lastErrorAt !== null
    ? {
        message: state.lastError,
        at: state.lastErrorAt,
        waitingFor: state.waitingFor,
        stopped: !state.active,
      }
    : null;
}

/**
 * Polls each tracked version on its own loop, so a slow or failing version never
 * stalls another. The delay grows while nothing changes and starts over at each
 * change, so a fast rebalance is followed closely and a long one costs little.
 * A failing poll is never silent: its reason and time are kept for the version.
 */
export class VersionTracker {
  private readonly loops = new Map<string, Loop>();
  private readonly states = new Map<string, TrackingState>();
  private readonly backoff: Backoff;
  private readonly now: () => string;
  private readonly clock: () => number;
  private readonly lagWindowMs: number;

  constructor(private readonly deps: TrackerDeps) {
    this.backoff = { ...DEFAULT_BACKOFF, ...deps.backoff };
    this.now = deps.now ?? (() => new Date().toISOString());
    this.clock = deps.clock ?? Date.now;
    this.lagWindowMs = deps.lagWindowMs ?? DEFAULT_LAG_WINDOW_MS;
  }

  /** Starts following a version; a version already followed is left as it is. */
  track(entry: TrackedVersion): void {
    if (this.loops.has(entry.versionId)) return;
    if (entry.status !== null && TERMINAL_VERSION_STATUSES.has(entry.status)) return;
    const loop: Loop = {
      controller: new AbortController(),
      wait: new AbortController(),
      afterAttempt: new Set(),
    };
    this.loops.set(entry.versionId, loop);
    const signal = loop.controller.signal;
    void this.follow({ ...entry }, loop).finally(() => {
      this.release(entry.versionId, signal);
      // Nobody waits for an attempt that will not come.
      for (const done of [...loop.afterAttempt]) done();
    });
  }

  /**
   * Polls a followed version now instead of at its next turn, and resolves once that poll
   * was tried. A version not followed any more is followed again from here.
   */
  checkNow(entry: TrackedVersion): Promise<void> {
    if (!this.loops.has(entry.versionId)) this.track(entry);
    const loop = this.loops.get(entry.versionId);
    if (!loop) return Promise.resolve();
    return new Promise((resolve) => {
      loop.afterAttempt.add(resolve);
      loop.wait.abort();
    });
  }

  /**
   * What following a version says in its detail and events: whether it is followed, and the last
   * failure (null when nothing went wrong).
   */
  followed(versionId: string): { tracking: boolean; trackingProblem: TrackingProblem | null } {
    return {
      tracking: this.isTracking(versionId),
      trackingProblem: trackingProblemOf(this.stateOf(versionId)),
    };
  }

  /** What is known of following this version; null when nothing went wrong. */
  stateOf(versionId: string): TrackingState | null {
    return this.states.get(versionId) ?? null;
  }

  /** Forgets a loop, unless another loop has taken the version over since. */
  private release(versionId: string, signal: AbortSignal): void {
    if (this.loops.get(versionId)?.controller.signal === signal) this.loops.delete(versionId);
  }

  untrack(versionId: string): void {
    stop(this.loops.get(versionId));
    this.loops.delete(versionId);
    this.states.delete(versionId);
  }

  isTracking(versionId: string): boolean {
    return this.loops.has(versionId);
  }

  get size(): number {
    return this.loops.size;
  }

  stopAll(): void {
    for (const loop of this.loops.values()) stop(loop);
    this.loops.clear();
  }

  private setState(entry: TrackedVersion, change: Partial<TrackingState> | null): void {
    const before = this.states.get(entry.versionId) ?? null;
    const merged: TrackingState | null = change && { ...CLEAN, ...before, ...change };
    // A clean state is no state: nothing to tell the manager.
    const next = merged && JSON.stringify(merged) !== JSON.stringify(CLEAN) ? merged : null;
    if (JSON.stringify(next) === JSON.stringify(before)) return;
    if (next) this.states.set(entry.versionId, next);
    else this.states.delete(entry.versionId);
    const { profileId, strategyId, versionId } = entry;
    this.deps.onEvent({
      type: 'tracking-changed',
      profileId,
      strategyId,
      versionId,
      state: next ?? CLEAN,
    });
  }

  /** The loop's current wait signal: stopping, or a "Check now", both end a wait. */
  private waitSignal(loop: Loop): AbortSignal {
    if (loop.wait.signal.aborted && !loop.controller.signal.aborted) {
      loop.wait = new AbortController();
    }
    return loop.wait.signal;
  }

  private attempted(loop: Loop): void {
    const waiting = [...loop.afterAttempt];
    loop.afterAttempt.clear();
    for (const done of waiting) done();
  }

  private async follow(entry: TrackedVersion, loop: Loop): Promise<void> {
    const signal = loop.controller.signal;
    let delay = this.backoff.initialMs;
    let needsCredentials = false;
    /** When the service first said it does not know the version, in this run of failures. */
    let unknownSince: number | null = null;
    if (this.states.get(entry.versionId)?.active === false) this.setState(entry, { active: true });
    while (!signal.aborted) {
      const wait = this.waitSignal(loop);
      try {
        if (needsCredentials && this.deps.waitForCredentials) {
          await this.deps.waitForCredentials(entry.profileId, wait);
        }
        await this.deps.waitUntilOnline(entry.profileId, wait);
        if (signal.aborted) return;
        const version = await this.deps.fetchVersion(entry, signal);
        if (signal.aborted) return;
        needsCredentials = false;
        unknownSince = null;
        const changed = version.status !== entry.status;
        // Every answer is stored (fills move while the status stays IN_PROGRESS).
        this.deps.saveVersion(entry, version);
        const ended = version.status !== null && TERMINAL_VERSION_STATUSES.has(version.status);
        // Not tracked any more by the time anyone hears it ended.
        if (ended) this.release(entry.versionId, signal);
        this.setState(entry, null);
        if (changed) {
          const previousStatus = entry.status;
          entry.status = version.status;
          this.deps.onEvent({
            type: 'status-changed',
            profileId: entry.profileId,
            strategyId: entry.strategyId,
            versionId: entry.versionId,
            previousStatus,
            status: version.status,
            version,
            ended,
          });
          delay = this.backoff.initialMs;
        } else {
          delay = Math.min(this.backoff.maxMs, delay * this.backoff.factor);
        }
        this.attempted(loop);
        if (ended) return;
      } catch (error) {
        if (signal.aborted) return;
        const lagging = this.deps.mayBeLagging?.(error) ?? false;
        if (lagging) unknownSince ??= this.clock();
        else unknownSince = null;
        // A version unknown for a while is taken to be gone; before that it may be on its way.
        const final =
          this.deps.isFinalFailure(error) &&
          (!lagging || this.clock() - unknownSince! >= this.lagWindowMs);
        needsCredentials = !final && (this.deps.needsCredentials?.(error) ?? false);
        if (final) this.release(entry.versionId, signal);
        const said = this.deps.describeFailure(error).replace(/\.$/, '');
        const window = spanInWords(this.lagWindowMs);
        const message = !lagging
          ? this.deps.describeFailure(error)
          : final
            ? `${said}. It was still unknown after ${window} of looking: following stopped; "Check now" looks again.`
            : `${said}. The service may not have caught up yet: the app keeps looking for up to ${window}.`;
        this.setState(entry, {
          lastError: message,
          lastErrorAt: this.now(),
          waitingFor: needsCredentials ? 'credentials' : null,
          active: !final,
        });
        this.deps.onEvent({
          type: 'poll-failed',
          profileId: entry.profileId,
          strategyId: entry.strategyId,
          versionId: entry.versionId,
          message,
          willRetry: !final,
        });
        this.attempted(loop);
        if (final) return;
        delay = Math.min(this.backoff.maxMs, delay * this.backoff.factor);
        if (needsCredentials) continue;
      }
      await sleep(delay, this.waitSignal(loop));
    }
  }
}

function stop(loop: Loop | undefined): void {
  loop?.controller.abort();
  loop?.wait.abort();
}
