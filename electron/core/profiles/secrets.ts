import type { SecretStore } from '../secrets';
import type { Store } from '../store';
import { KeychainFailure } from '../errors';

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

/**
 * What the log is cleaned of: the secret of every profile there is (read from the keychain once,
 * then kept as the desk itself sets and deletes them, in `seen`) and every live token. A removed
 * profile's secret is no longer looked for. Answers are not cleaned here: the service client
 * takes echoes out of the service's words where they enter (api/errors.ts, redactError).
 */
export async function secretsToRedact(
  store: Pick<Store, 'profiles'>,
  keychain: Pick<SecretStore, 'get'>,
  seen: Map<string, string | null>,
  liveTokens: () => string[],
): Promise<string[]> {
  const profiles = store.profiles.list();
  const unread = profiles.filter((p) => !seen.has(p.id));
  await Promise.all(
    unread.map(async (p) => {
      const secret = await keychain.get(p.id).catch(() => null);
      if (!seen.has(p.id)) seen.set(p.id, secret);
    }),
  );
  const stored = profiles.flatMap((p) => seen.get(p.id) || []);
  return [...stored, ...liveTokens()];
}
