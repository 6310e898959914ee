import type { Version } from '../../../shared/domain/resources';
import { isServiceError } from '../api';
import { recordVersionImported } from '../activity';
import type { Store } from '../store';
import type { Connections } from '../profiles/connections';
import type { StrategySync } from '../strategies/sync';
import type { Follower } from '../tracking/tracker';
import type { UnexecutedVersions } from './unexecuted';

export interface VersionImportDeps {
  /** The whole store: each import is recorded in the activity log. */
  store: Store;
  connections: Pick<Connections, 'call'>;
  /** Adds the version's strategy when the profile does not hold it yet. */
  strategySync: Pick<StrategySync, 'read'>;
  /** Follows an executed version until its rebalance ends. */
  tracker: Pick<Follower, 'track'>;
  /** An unexecuted version imported is in the way; one found executed or gone no longer is. */
  unexecuted: Pick<UnexecutedVersions, 'noteRead'>;
  now(): string;
}

/**
 * Importing a version by id (the interface has no listing, so the history is what the app
 * knows): the manager's import and the sandbox profile's demo versions alike. An executed
 * version still rebalancing is followed from here on. A version of a strategy the profile does
 * not hold brings its strategy with it.
 */
export class VersionImport {
  constructor(private readonly deps: VersionImportDeps) {}

  async import(profileId: string, strategyId: string, versionId: string): Promise<Version> {
    const { store, connections, tracker, unexecuted, now } = this.deps;
    const version = await connections
      .call(profileId, (c) =>
        c.getVersion(strategyId, versionId, { orders: true, positions: true }),
      )
      .catch((error: unknown) => {
        // Gone at the service: a copy kept here would be a phantom in the history.
        if (isServiceError(error, 'not-found')) {
          store.versions.remove(profileId, versionId);
          store.unexecuted.forget(profileId, versionId);
        }
        throw error;
      });
    // A version of a strategy the profile does not hold: the strategy comes with it, as "Add
    // strategy" adds it (and records it), or the import is refused in plain words.
    if (!store.strategies.get(profileId, strategyId)) {
      await this.deps.strategySync.read(profileId, strategyId).catch((error: unknown) => {
        throw strategyNotAdded(error);
      });
    }
    const syncedAt = now();
    recordVersionImported(store, profileId, version, () => {
      store.versions.recordRead(profileId, version, { origin: 'imported', syncedAt });
      unexecuted.noteRead(profileId, version, 'imported', syncedAt);
    });
    if (version.executed_at !== null) {
      tracker.track({ profileId, strategyId, versionId, location: null, status: version.status });
    }
    return version;
  }
}

/** The version was read but its strategy could not be added: the reason, in plain words. */
function strategyNotAdded(error: unknown): unknown {
  const why =
    'The version was read, but its strategy is not in this profile and could not be added';
  if (isServiceError(error))
    return error.with({ message: `${why}: ${error.message}. Nothing was stored.` });
  return error;
}
