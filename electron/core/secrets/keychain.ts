import type { SecretStore } from './secret-store';

/** The part of keytar this adapter uses (keytar is CommonJS; loaded lazily by openSecretStore). */
export interface KeytarApi {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The OS keychain through keytar: service = the app id, account = the profile id. */
export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain';
  readonly fallbackReason = null;

  constructor(
    private readonly keytar: KeytarApi,
    readonly service: string,
  ) {}

  get(profileId: string): Promise<string | null> {
    return this.#call('read the client secret', () =>
      this.keytar.getPassword(this.service, profileId),
    );
  }

  set(profileId: string, secret: string): Promise<void> {
    return this.#call('store the client secret', () =>
      this.keytar.setPassword(this.service, profileId, secret),
    );
  }

  delete(profileId: string): Promise<boolean> {
    return this.#call('remove the client secret', () =>
      this.keytar.deletePassword(this.service, profileId),
    );
  }

  // keytar's messages name the keychain's problem, never the secret; keep them as the detail.
  async #call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (cause) {
      throw new Error(`The system keychain could not ${what}: ${describe(cause)}`, { cause });
    }
  }
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
