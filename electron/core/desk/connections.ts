import {
  createServiceClient,
  isServiceError,
  type ServiceClient,
  type ServiceClientOptions,
} from '../api';
import { ServiceError } from '../api';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';

export type ConnectivityListener = (
  profileId: string,
  online: boolean,
  message: string | null,
) => void;

/**
 * One service client per profile, built on first use, and what the desk knows
 * of each profile's connectivity: a request that got no answer at all (network,
 * timeout) means offline; any answer from the service means online.
 */
export class Connections {
  private readonly clients = new Map<string, ServiceClient>();
  private readonly offline = new Map<string, string>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly scopesSeen = new Map<string, string>();

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretStore,
    private readonly onConnectivity: ConnectivityListener,
    private readonly clientOptions: Partial<ServiceClientOptions> = {},
  ) {}

  client(profileId: string): ServiceClient {
    let client = this.clients.get(profileId);
    if (client) return client;
    const profile = this.store.profiles.get(profileId);
    if (!profile)
      throw new ServiceError({ kind: 'not_found', message: 'This profile no longer exists.' });
    client = createServiceClient({
      ...this.clientOptions,
      baseUrl: profile.baseUrl,
      clientId: profile.clientId,
      getSecret: async () => {
        const secret = await this.secrets.get(profileId);
        if (secret === null) {
          throw new ServiceError({
            kind: 'no_secret',
            message:
              'The client secret of this profile is not stored: enter it again in the profile.',
          });
        }
        return secret;
      },
    });
    this.clients.set(profileId, client);
    return client;
  }

  /** Runs one call to the service and keeps the profile's connectivity up to date. */
  async call<T>(profileId: string, work: (client: ServiceClient) => Promise<T>): Promise<T> {
    const client = this.client(profileId);
    try {
      const result = await work(client);
      this.markOnline(profileId);
      this.noteScopes(profileId, client.grantedScopes());
      return result;
    } catch (error) {
      if (isServiceError(error) && (error.kind === 'network' || error.kind === 'timeout')) {
        this.markOffline(profileId, error.message);
      } else if (isServiceError(error) && error.status !== undefined) {
        this.markOnline(profileId);
      }
      throw error;
    }
  }

  /**
   * The scopes of each new token are stored with the profile, so actions it may not take are
   * disabled from the first call on, not only after an explicit connection test.
   */
  private noteScopes(profileId: string, scopes: string[] | null): void {
    if (scopes === null) return;
    const key = [...scopes].sort().join(' ');
    if (this.scopesSeen.get(profileId) === key) return;
    this.scopesSeen.set(profileId, key);
    this.store.profiles.setGrantedScopes(profileId, scopes);
  }

  /** The access tokens the clients hold now (redacted from errors before they cross). */
  liveTokens(): string[] {
    return [...this.clients.values()].flatMap((c) => c.liveToken() ?? []);
  }

  isOnline(profileId: string): boolean {
    return !this.offline.has(profileId);
  }

  /** Resolves when the profile is back online, or after `probeMs` so the caller can try again. */
  async waitUntilOnline(profileId: string, signal: AbortSignal, probeMs = 5000): Promise<void> {
    if (this.isOnline(profileId) || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const waiters = this.waiters.get(profileId) ?? new Set();
      this.waiters.set(profileId, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, probeMs);
      waiters.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Forgets a profile's client (its address or credentials changed, or it was removed). */
  async reset(profileId: string): Promise<void> {
    const client = this.clients.get(profileId);
    this.clients.delete(profileId);
    this.offline.delete(profileId);
    this.scopesSeen.delete(profileId);
    await client?.close();
  }

  async closeAll(): Promise<void> {
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }

  private markOnline(profileId: string): void {
    if (!this.offline.delete(profileId)) return;
    this.onConnectivity(profileId, true, null);
    for (const wake of [...(this.waiters.get(profileId) ?? [])]) wake();
  }

  private markOffline(profileId: string, message: string): void {
    const was = this.offline.has(profileId);
    this.offline.set(profileId, message);
    if (!was) this.onConnectivity(profileId, false, message);
  }
}
