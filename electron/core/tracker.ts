import { setTimeout as sleep } from 'node:timers/promises';
import type { Version, VersionStatus } from '../../shared/domain/resources';
import { TERMINAL_VERSION_STATUSES } from '../../shared/domain/resources';

/** One version being followed until its rebalance ends. */
export interface TrackedVersion {
  profileId: string;
  strategyId: string;
  versionId: string;
  /** The execute response's Location, polled as given; null for an imported version (read by id). */
  location: string | null;
  status: VersionStatus | null;
}

export type TrackerEvent =
  | {
      type: 'status-changed';
      profileId: string;
      strategyId: string;
      versionId: string;
      previousStatus: VersionStatus | null;
      status: VersionStatus | null;
      version: Version;
      ended: boolean;
    }
  | {
      type: 'poll-failed';
      profileId: string;
      strategyId: string;
      versionId: string;
      message: string;
      /** False when tracking stopped for good (the version is gone, access was revoked). */
      willRetry: boolean;
    };

export interface TrackerDeps {
  /** Reads the version at its Location; throws on failure. */
  fetchVersion(entry: TrackedVersion, signal: AbortSignal): Promise<Version>;
  /** Stores every change before it is announced. */
  saveVersion(entry: TrackedVersion, version: Version): void;
  /** Resolves when the profile's service is reachable again (immediately when online). */
  waitUntilOnline(profileId: string, signal: AbortSignal): Promise<void>;
  /** Whether a polling failure is final (no point polling again), e.g. 404 or 403. */
  isFinalFailure(error: unknown): boolean;
  describeFailure(error: unknown): string;
  onEvent(event: TrackerEvent): void;
  backoff?: Partial<Backoff>;
}

export interface Backoff {
  initialMs: number;
  factor: number;
  maxMs: number;
}

const DEFAULT_BACKOFF: Backoff = { initialMs: 250, factor: 1.6, maxMs: 10_000 };

/**
 * Polls each tracked version on its own loop, so a slow or failing version never
 * stalls another. The delay grows while nothing changes and starts over at each
 * change, so a fast rebalance is followed closely and a long one costs little.
 */
export class VersionTracker {
  private readonly loops = new Map<string, AbortController>();
  private readonly backoff: Backoff;

  constructor(private readonly deps: TrackerDeps) {
    this.backoff = { ...DEFAULT_BACKOFF, ...deps.backoff };
  }

  /** Starts following a version; a version already followed is left as it is. */
  track(entry: TrackedVersion): void {
    if (this.loops.has(entry.versionId)) return;
    if (entry.status !== null && TERMINAL_VERSION_STATUSES.has(entry.status)) return;
    const controller = new AbortController();
    this.loops.set(entry.versionId, controller);
    void this.follow({ ...entry }, controller.signal).finally(() =>
      this.release(entry.versionId, controller.signal),
    );
  }

  /** Forgets a loop, unless another loop has taken the version over since. */
  private release(versionId: string, signal: AbortSignal): void {
    if (this.loops.get(versionId)?.signal === signal) this.loops.delete(versionId);
  }

  untrack(versionId: string): void {
    this.loops.get(versionId)?.abort();
    this.loops.delete(versionId);
  }

  isTracking(versionId: string): boolean {
    return this.loops.has(versionId);
  }

  get size(): number {
    return this.loops.size;
  }

  stopAll(): void {
    for (const controller of this.loops.values()) controller.abort();
    this.loops.clear();
  }

  private async follow(entry: TrackedVersion, signal: AbortSignal): Promise<void> {
    let delay = this.backoff.initialMs;
    while (!signal.aborted) {
      try {
        await this.deps.waitUntilOnline(entry.profileId, signal);
        const version = await this.deps.fetchVersion(entry, signal);
        if (signal.aborted) return;
        const changed = version.status !== entry.status;
        // Every answer is stored (fills move while the status stays IN_PROGRESS).
        this.deps.saveVersion(entry, version);
        const ended = version.status !== null && TERMINAL_VERSION_STATUSES.has(version.status);
        // Not tracked any more by the time anyone hears it ended.
        if (ended) this.release(entry.versionId, signal);
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
        if (ended) return;
      } catch (error) {
        if (signal.aborted) return;
        const final = this.deps.isFinalFailure(error);
        if (final) this.release(entry.versionId, signal);
        this.deps.onEvent({
          type: 'poll-failed',
          profileId: entry.profileId,
          strategyId: entry.strategyId,
          versionId: entry.versionId,
          message: this.deps.describeFailure(error),
          willRetry: !final,
        });
        if (final) return;
        delay = Math.min(this.backoff.maxMs, delay * this.backoff.factor);
      }
      await sleep(delay, undefined, { signal }).catch(() => undefined);
    }
  }
}
