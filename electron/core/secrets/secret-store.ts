/** The app id: the keychain service name under which every profile's client secret is kept. */
export const APP_ID = 'com.strategydesk.app';

/**
 * Where a profile's client_secret lives, keyed by profile id. Nothing else holds the secret:
 * not SQLite, not logs, not the renderer. Implementations never put the secret in an error.
 */
export interface SecretStore {
  readonly kind: 'keychain' | 'memory';
  /** Why the memory store is in use (shown to the manager); null for the keychain. */
  readonly fallbackReason: string | null;
  get(profileId: string): Promise<string | null>;
  set(profileId: string, secret: string): Promise<void>;
  /** True when a secret was there and is now gone. */
  delete(profileId: string): Promise<boolean>;
}

/** The session-only fallback when no keychain answers: secrets are lost when the app quits. */
export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory';
  readonly #secrets = new Map<string, string>();

  constructor(readonly fallbackReason: string | null = null) {}

  async get(profileId: string): Promise<string | null> {
    return this.#secrets.get(profileId) ?? null;
  }

  async set(profileId: string, secret: string): Promise<void> {
    this.#secrets.set(profileId, secret);
  }

  async delete(profileId: string): Promise<boolean> {
    return this.#secrets.delete(profileId);
  }
}
