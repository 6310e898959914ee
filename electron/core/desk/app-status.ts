import type { DeskHandlers } from '../../../shared/contract';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';
import type { Connections } from '../profiles/connections';
import { attentionCounts } from '../views/strategy';

export interface AppStatusServices {
  store: Pick<Store, 'profiles' | 'strategies' | 'versions' | 'journal' | 'failures'>;
  connections: Pick<Connections, 'isOnline' | 'credentialsProblem'>;
  /** The keychain as opened (its kind and why it fell back), not the desk's wrapper. */
  secretStore: Pick<SecretStore, 'kind' | 'fallbackReason'>;
}

/** The status bar: asked every few seconds, so each figure is one query, not a walk of the data. */
export function appStatusHandlers({
  store,
  connections,
  secretStore,
}: AppStatusServices): Pick<DeskHandlers['app'], 'status'> {
  return {
    async status() {
      const profiles = store.profiles.list();
      return {
        online: profiles.every((p) => connections.isOnline(p.id)),
        lastSyncAt: store.strategies.lastSyncedAt(),
        oldestSyncAt: store.strategies.oldestSyncedAt(),
        // The same source as each strategy's running version in the sidebar.
        runningVersions: store.versions.countActive(),
        // Unknown outcomes and failed rebalances not yet acknowledged (views/strategy.ts).
        ...attentionCounts(store),
        secretStorage: secretStore.kind === 'keychain' ? 'keychain' : 'session',
        secretStorageReason: secretStore.fallbackReason,
        credentialsProblem:
          profiles.map((p) => connections.credentialsProblem(p.id)).find((m) => m !== null) ?? null,
      };
    },
  };
}
