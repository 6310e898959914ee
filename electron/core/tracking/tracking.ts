import type { TrackingProblem } from '../../../shared/views';
import { Listeners } from '../../../shared/listeners';
import { recordVersionEnded } from '../activity';
import { isServiceError } from '../api';
import { toDeskError } from '../errors';
import { errorFields, type DeskLog } from '../log/logger';
import type { Connections } from '../profiles/connections';
import type { Store } from '../store';
import { readStrategy } from '../strategies/sync';
import type { StatusChange } from '../views/strategy';
import {
  VersionTracker,
  trackingProblemOf,
  type Backoff,
  type Follower,
  type TrackerEvent,
} from './tracker';

/** Failures that only new credentials (an address, a secret, a client) can cure. */
const CREDENTIAL_FAILURES = [
  'unauthorized',
  'forbidden',
  'invalid-client',
  'invalid-scope',
  'no-secret',
] as const;

export interface TrackingDeps {
  /** The whole store: a rebalance that ended is recorded in the activity log. */
  store: Store;
  connections: Pick<Connections, 'call' | 'inBulk' | 'waitUntilOnline' | 'waitForCredentials'>;
  log: DeskLog;
  now(): string;
  /** For tests: how fast the tracker polls. */
  backoff?: Partial<Backoff>;
  /** How long a followed version may stay unknown to the service before following stops. */
  versionLagMs?: number;
  /** How long the tracker waits between probes while a profile is offline. */
  offlineProbeMs?: number;
  /** How long the tracker waits for a secret to be entered before it looks again. */
  credentialsProbeMs?: number;
}

/** Following a version failed, waits for something, or works again (then the problem is null). */
export interface TrackingChange {
  profileId: string;
  strategyId: string;
  versionId: string;
  trackingProblem: TrackingProblem | null;
}

/**
 * Following executed versions until their rebalance ends, every step of a poll in order in this
 * file: the tracker (tracker.ts) polls; each answer is stored; a change of status is announced,
 * and when the rebalance ended, first the strategy is read at once so the target it settled on
 * is noted, and the outcome joins the activity log. What it tells are domain events, typed:
 * `onStatusChanged`, `onVersionEnded` (once that end is settled and recorded: what a batch waits
 * for) and `onTrackingChanged`; the desk derives the hosts' events from them. Executing and the handlers follow a version
 * and ask what following it says through `tracker` itself.
 */
export class Tracking {
  private readonly polls: VersionTracker;
  /** What is followed: a version followed, polled now, and what following it says. */
  readonly tracker: Follower;
  /** Set once the desk stops following everything (it is closing). */
  private stopped = false;
  /** Versions that ended whose end is being settled and recorded, not yet announced. */
  private readonly endsUnderway = new Set<string>();
  private readonly statusChanges: Listeners<StatusChange>;
  private readonly ends: Listeners<StatusChange>;
  private readonly trackingChanges: Listeners<TrackingChange>;

  constructor(private readonly deps: TrackingDeps) {
    const { store, connections, now } = deps;
    // One listener that fails (a store closed under it) must not keep the others from hearing.
    const onListenerError = (error: unknown) =>
      deps.log.error('A listener of version tracking failed', errorFields(error));
    this.statusChanges = new Listeners({ onListenerError });
    this.ends = new Listeners({ onListenerError });
    this.trackingChanges = new Listeners({ onListenerError });
    this.polls = new VersionTracker({
      // Polls are many and nobody waits on one: a manager's own request goes before them.
      fetchVersion: (entry) =>
        connections.inBulk(() => connections.call(entry.profileId, (c) => c.followVersion(entry))),
      // Every answer is stored, its status noted as seen, before any of it is announced.
      saveVersion: (entry, version) =>
        store.versions.recordRead(entry.profileId, version, { syncedAt: now() }),
      waitUntilOnline: (profileId, signal) =>
        connections.waitUntilOnline(profileId, signal, deps.offlineProbeMs),
      // A version that is gone will not come back by polling; but a service whose reads lag
      // behind its writes may not know it yet, so a 404 is final only after a while.
      isFinalFailure: (error) => isServiceError(error, 'not-found'),
      mayBeLagging: (error) => isServiceError(error, 'not-found'),
      ...(deps.versionLagMs !== undefined && { lagWindowMs: deps.versionLagMs }),
      // Missing or refused credentials come back when the manager enters them: wait for that.
      needsCredentials: (error) => isServiceError(error, ...CREDENTIAL_FAILURES),
      waitForCredentials: (profileId, signal) =>
        connections.waitForCredentials(profileId, signal, deps.credentialsProbeMs),
      describeFailure: (error) => toDeskError(error).message,
      now,
      onEvent: (event) => {
        if (event.type === 'tracking-changed') this.trackingChanged(event);
        if (event.type === 'status-changed') void this.statusChanged(event);
      },
      ...(deps.backoff !== undefined && { backoff: deps.backoff }),
    });
    this.tracker = this.polls;
  }

  /** Hears every change of a followed version's status (stored already). */
  onStatusChanged(listener: (change: StatusChange) => void): () => void {
    return this.statusChanges.add(listener);
  }

  /**
   * Hears each followed version that ended, once its end is settled (the strategy read, the
   * target noted) and recorded in the activity log, after its status change was told.
   */
  onVersionEnded(listener: (ended: StatusChange) => void): () => void {
    return this.ends.add(listener);
  }

  /** Hears following a version go wrong, wait, or work again. */
  onTrackingChanged(listener: (change: TrackingChange) => void): () => void {
    return this.trackingChanges.add(listener);
  }

  /** A poll found the version in a new status (stored already). */
  private async statusChanged(event: Extract<TrackerEvent, { type: 'status-changed' }>) {
    const { profileId, strategyId, versionId, previousStatus, status, ended } = event;
    const change: StatusChange = {
      profileId,
      strategyId,
      versionId,
      previousStatus,
      status,
      ended,
    };
    if (ended) {
      // Stored as ended already; a batch waits for this end to be settled and recorded.
      this.endsUnderway.add(versionId);
      try {
        // The rebalance ended: the holdings are read at once, and the target they settled on
        // noted. A store closed meanwhile (the app quitting) must not stop the telling.
        await this.settleTarget(change).catch(() => undefined);
        // Its outcome joins the activity log (once per version).
        this.recordEnded(change);
      } finally {
        this.endsUnderway.delete(versionId);
      }
    }
    // Nobody is told once the desk is closing (its store may be closed already).
    if (this.stopped) return;
    this.statusChanges.emit(change);
    if (ended) this.ends.emit(change);
  }

  private recordEnded(ended: StatusChange): void {
    try {
      recordVersionEnded(this.deps.store, ended);
    } catch (error) {
      if (!this.stopped)
        this.deps.log.error('The end of a version could not be recorded', errorFields(error));
    }
  }

  /** Following a version failed, or works again: its detail's note changes. */
  private trackingChanged(event: Extract<TrackerEvent, { type: 'tracking-changed' }>): void {
    const { profileId, strategyId, versionId, state } = event;
    this.trackingChanges.emit({
      profileId,
      strategyId,
      versionId,
      trackingProblem: trackingProblemOf(state),
    });
  }

  /**
   * The versions whose end is being settled (the strategy read, the activity entry written):
   * stored as ended already, told through `onVersionEnded` once that is done. Few at a time.
   */
  endsBeingSettled(): string[] {
    return [...this.endsUnderway];
  }

  /** Follows again every version still rebalancing (at start-up). */
  resumeActive(): void {
    for (const v of this.deps.store.versions.listActive()) {
      this.polls.track({
        profileId: v.profile_id,
        strategyId: v.strategy_id,
        versionId: v.id,
        location: v.location,
        status: v.status,
      });
    }
  }

  /** Stops following a profile's versions, or one strategy's, before they are removed. */
  stopFollowing(scope: { profileId: string; strategyId?: string }): void {
    for (const v of this.deps.store.versions.listActive(scope)) this.polls.untrack(v.id);
  }

  stopAll(): void {
    this.stopped = true;
    this.polls.stopAll();
    this.statusChanges.clear();
    this.ends.clear();
    this.trackingChanges.clear();
  }

  /**
   * When a version the app follows ends: reads the strategy at once and, when that version is
   * the known target, notes the strategy's update time as the one it settled on. A version whose
   * orders carry no end time (all IGNORED, or none) is then still told apart from a later change
   * made elsewhere (shared/known-target.ts, targetCheckFrom). Offline or refused, nothing is
   * noted and such a target stays in doubt. The read is the one every strategy read goes
   * through (strategies/sync.ts `readStrategy`): stored, its "Refresh failed" set or ended.
   */
  private async settleTarget(ended: StatusChange): Promise<void> {
    const { store } = this.deps;
    const { profileId, strategyId, versionId } = ended;
    if (!store.strategies.get(profileId, strategyId)) return;
    const fresh = await this.deps.connections
      .inBulk(() => readStrategy(this.deps, profileId, strategyId))
      .catch(() => null);
    if (!fresh) return;
    if (store.versions.latestExecuted(profileId, strategyId)?.id === versionId)
      store.predictions.recordBaseline(profileId, strategyId, versionId, fresh.updated_at);
  }
}
