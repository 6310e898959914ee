import type { VersionStatus } from '../../../shared/domain/constants';
import { VERSION_STATUSES } from '../../../shared/domain/constants';
import type { Version } from '../../../shared/domain/resources';
import type { VersionDetail } from '../../../shared/views';
import type { Store, VersionUpsertOptions } from '../store';
import type { VersionTracker } from '../tracker';

const KNOWN_STATUSES: ReadonlySet<string> = new Set(VERSION_STATUSES);

/**
 * Stores a version just read from the service (an execute's answer, a poll, an import) and notes
 * its status as seen at the same time, the first time it is seen in it.
 */
export function storeVersionRead(
  store: Store,
  profileId: string,
  version: Version,
  options: VersionUpsertOptions & { syncedAt: string },
): void {
  store.versions.upsert(profileId, version, options);
  if (version.status !== null)
    store.versions.noteStatusSeen(profileId, version.id, version.status, options.syncedAt);
}

/** What a version's detail says about following it: the stored step times, the last failure. */
export function trackingFields(
  store: Store,
  tracker: VersionTracker,
  profileId: string,
  versionId: string,
): Pick<VersionDetail, 'trackingProblem' | 'statusSeen'> {
  const state = tracker.stateOf(versionId);
  return {
    trackingProblem:
      state && state.lastError !== null && state.lastErrorAt !== null
        ? {
            message: state.lastError,
            at: state.lastErrorAt,
            waitingFor: state.waitingFor,
            stopped: !state.active,
          }
        : null,
    statusSeen: store.versions
      .statusSeen(profileId, versionId)
      .filter((s) => KNOWN_STATUSES.has(s.status))
      .map((s) => ({ status: s.status as VersionStatus, firstSeenAt: s.first_seen_at })),
  };
}
