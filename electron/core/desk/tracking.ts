import type { VersionStatus } from '../../../shared/domain/constants';
import { VERSION_STATUSES } from '../../../shared/domain/constants';
import type { Version } from '../../../shared/domain/resources';
import type { VersionDetail } from '../../../shared/views';
import type { Store } from '../store';
import type { VersionTracker } from '../tracker';

const KNOWN_STATUSES: ReadonlySet<string> = new Set(VERSION_STATUSES);

/** Notes the status a version was just read in, the first time it is seen in it. */
export function noteStatusSeen(store: Store, profileId: string, version: Version, at: string) {
  if (version.status !== null)
    store.versions.noteStatusSeen(profileId, version.id, version.status, at);
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
