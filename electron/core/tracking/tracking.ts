import type { VersionStatus } from '../../../shared/domain/constants';
import { VERSION_STATUSES } from '../../../shared/domain/constants';
import type { DeskEvent } from '../../../shared/contract';
import type { VersionDetail } from '../../../shared/views';
import { isServiceError } from '../api';
import { errorFields, type DeskLog } from '../log/logger';
import type { Store } from '../store';
import { VersionTracker, type Backoff, type TrackedVersion, type TrackingState } from './tracker';
import { settleTarget } from '../execution/confirmation';
import type { Connections } from '../profiles/connections';
import { toDeskError } from '../desk/errors';
import type { DeskEvents } from '../desk/events';
import type { StatusChange } from './status-change';
import type { StrategySync } from '../strategies/sync';

const KNOWN_STATUSES: ReadonlySet<string> = new Set(VERSION_STATUSES);

/** The last failure of following a version, as its detail and its event show it. */
function trackingProblemOf(state: TrackingState | null): VersionDetail['trackingProblem'] {
  return state && state.lastError !== null && state.lastErrorAt !== null
    ? {
        message: state.lastError,
        at: state.lastErrorAt,
        waitingFor: state.waitingFor,
        stopped: !state.active,
      }
    : null;
}

/** What a version's detail says about following it: the stored step times, the last failure. */
function trackingFields(
  store: Pick<Store, 'versions'>,
  tracker: VersionTracker,
  profileId: string,
  versionId: string,
): Pick<VersionDetail, 'trackingProblem' | 'statusSeen'> {
  return {
    trackingProblem: trackingProblemOf(tracker.stateOf(versionId)),
    statusSeen: store.versions
      .statusSeen(profileId, versionId)
      .filter((s) => KNOWN_STATUSES.has(s.status))
      .map((s) => ({ status: s.status as VersionStatus, firstSeenAt: s.first_seen_at })),
  };
}

/** Failures that only new credentials (an address, a secret, a client) can cure. */
const CREDENTIAL_FAILURES: ReadonlySet<string> = new Set([
  'unauthorized',
  'forbidden',
  'invalid_client',
  'invalid_scope',
  'no_secret',
]);

export interface TrackingDeps {
  store: Pick<Store, 'versions' | 'strategies' | 'predictions'>;
  connections: Connections;
  strategySync: Pick<StrategySync, 'read'>;
  events: DeskEvents;
  log: DeskLog;
  now(): string;
  /** The announcement of a stored status change, with what every screen shows of it. */
  describeChange(
    change: StatusChange,
  ): Extract<DeskEvent, { type: 'version-status-changed' }> | null;
  /** A followed version's rebalance ended (before it is announced): its outcome is recorded. */
  onEnded(ended: { profileId: string; strategyId: string; versionId: string }): void;
  /** For tests: how fast the tracker polls. */
  backoff?: Partial<Backoff>;
  /** How long a followed version may stay unknown to the service before following stops. */
  versionLagMs?: number;
  /** How long the tracker waits between probes while a profile is offline. */
  offlineProbeMs?: number;
  /** How long the tracker waits for a secret to be entered before it looks again. */
  credentialsProbeMs?: number;
}

/**
 * Following executed versions until their rebalance ends: each poll is stored, each status change
 * announced, and at the end the strategy is read at once so the target it settled on is noted.
 */
export class Tracking {
  private readonly tracker: VersionTracker;

  constructor(private readonly deps: TrackingDeps) {
    const { store, connections, events, log, now } = deps;
    this.tracker = new VersionTracker({
      fetchVersion: (entry) => connections.call(entry.profileId, (c) => c.followVersion(entry)),
      saveVersion: (entry, version) =>
        store.versions.recordRead(entry.profileId, version, { syncedAt: now() }),
      waitUntilOnline: (profileId, signal) =>
        connections.waitUntilOnline(profileId, signal, deps.offlineProbeMs),
      // A version that is gone will not come back by polling; but a service whose reads lag
      // behind its writes may not know it yet, so a 404 is final only after a while.
      isFinalFailure: (error) => isServiceError(error) && error.kind === 'not_found',
      mayBeLagging: (error) => isServiceError(error) && error.kind === 'not_found',
      ...(deps.versionLagMs !== undefined && { lagWindowMs: deps.versionLagMs }),
      // Missing or refused credentials come back when the manager enters them: wait for that.
      needsCredentials: (error) => isServiceError(error) && CREDENTIAL_FAILURES.has(error.kind),
      waitForCredentials: (profileId, signal) =>
        connections.waitForCredentials(profileId, signal, deps.credentialsProbeMs),
      describeFailure: (error) => toDeskError(error).message,
      now,
      onEvent: (event) => {
        if (event.type === 'tracking-changed') {
          const { profileId, strategyId, versionId, state } = event;
          events.emit({
            type: 'version-tracking-changed',
            profileId,
            strategyId,
            versionId,
            trackingProblem: trackingProblemOf(state),
          });
        }
        if (event.type === 'status-changed') {
          const { profileId, strategyId, versionId, previousStatus, status, ended } = event;
          const announce = () => {
            // Nobody listens once the desk is closing (its store may be closed already).
            if (!events.listening) return;
            const change = { profileId, strategyId, versionId, previousStatus, status, ended };
            const announced = deps.describeChange(change);
            if (announced) events.emit(announced);
          };
          // At the end, the holdings are read at once (and the target they settled on noted) first.
          if (ended)
            void settleTarget(store, deps.strategySync, event)
              // A store closed meanwhile (the app quitting) must not stop the announcement.
              .catch(() => undefined)
              .then(() => deps.onEnded(event))
              .then(announce)
              .catch((error: unknown) =>
                log.error('A version status change could not be announced', errorFields(error)),
              );
          else announce();
        }
      },
      ...(deps.backoff !== undefined && { backoff: deps.backoff }),
    });
  }

  /** Follows a version until its rebalance ends (one already followed is left as it is). */
  follow(version: TrackedVersion): void {
    this.tracker.track(version);
  }

  /** Polls a version now (following it again if it was not); resolves once that poll was tried. */
  checkNow(version: TrackedVersion): Promise<void> {
    return this.tracker.checkNow(version);
  }

  /** Follows again every version still rebalancing (at start-up). */
  resumeActive(): void {
    for (const v of this.deps.store.versions.listActive()) {
      this.follow({
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
    for (const v of this.deps.store.versions.listActive(scope)) this.tracker.untrack(v.id);
  }

  isFollowing(versionId: string): boolean {
    return this.tracker.isTracking(versionId);
  }

  /** What a version's detail says about following it: the stored step times, the last failure. */
  detailFields(
    profileId: string,
    versionId: string,
  ): Pick<VersionDetail, 'trackingProblem' | 'statusSeen'> {
    return trackingFields(this.deps.store, this.tracker, profileId, versionId);
  }

  stopAll(): void {
    this.tracker.stopAll();
  }
}
