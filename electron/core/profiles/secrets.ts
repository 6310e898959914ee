import type { SecretStore } from '../secrets';
import { KeychainFailure } from '../desk/errors';

/**
 * The secret store as the desk uses it: a keychain failure becomes a KeychainFailure, so it
 * reaches the manager as its own kind with a plain message while the keychain's words are logged.
 */
export function withKeychainFailures(store: SecretStore): SecretStore {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (cause) {
        throw cause instanceof KeychainFailure ? cause : new KeychainFailure({ cause });
      }
    };
  return {
    kind: store.kind,
    fallbackReason: store.fallbackReason,
    get: guard((profileId: string) => store.get(profileId)),
    set: guard((profileId: string, secret: string) => store.set(profileId, secret)),
    delete: guard((profileId: string) => store.delete(profileId)),
  };
}

/**
 * The store, noting every secret it reads, sets or deletes in `seen` (profile id to secret), so
 * the desk can clean answers of them without asking the keychain on every call.
 */
export function rememberingSecrets(
  store: SecretStore,
  seen: Map<string, string | null>,
): SecretStore {
  return {
    kind: store.kind,
    fallbackReason: store.fallbackReason,
    async get(profileId) {
      const secret = await store.get(profileId);
      seen.set(profileId, secret);
      return secret;
    },
    async set(profileId, secret) {
      await store.set(profileId, secret);
      seen.set(profileId, secret);
    },
    async delete(profileId) {
      const deleted = await store.delete(profileId);
      seen.set(profileId, null);
      return deleted;
    },
  };
}
