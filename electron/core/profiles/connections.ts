import { AsyncLocalStorage } from 'node:async_hooks';
import type { DeskEvent } from '../../../shared/contract';
import {
  DEFAULT_RETRY,
  createServiceClient,
  isServiceError,
  rateLimitedWait,
  type RetryPolicy,
  type ServiceClient,
  type ServiceClientOptions,
} from '../api';
import { ServiceError } from '../api';
import { RequestBudget, type Lane } from '../api/budget';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';

/** Where a change of a profile's connectivity is announced (the desk's events). */
export type Emit = (event: DeskEvent) => void;

/** Said (online) while a request has waited past the client's slow threshold. */
export const SLOW_SERVICE_MESSAGE = 'The service is slow to answer';

/**
 * One service client per profile, built on first use, and what the desk knows
 * of each profile's connectivity: a request that got no answer at all (network,
 * timeout) means offline; any answer from the service means online; online with
 * a request long unanswered means slow. Every request of a profile goes through
 * `call`, so through the profile's one request budget (api/budget.ts): at most
 * MAX_REQUESTS_AT_ONCE at the service whatever runs together, the manager's
 * first, none started while a 429's wait lasts. A 429's wait is decided here,
 * once (`pauseAfter429`), and paces every flow of the profile through its budget.
 */
export class Connections {
  private readonly clients = new Map<string, ServiceClient>();
  private readonly offline = new Map<string, string>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly scopesSeen = new Map<string, string>();
  private readonly credentialWaiters = new Map<string, Set<() => void>>();
  private readonly slow = new Set<string>();
  /** Profiles whose token request the service refused, and what to tell the manager. */
  private readonly refused = new Map<string, string>();
  /** The one retry policy of every profile's requests (api/retry.ts). */
  private readonly policy: RetryPolicy;
  private readonly budgets = new Map<string, RequestBudget>();
  /** The 429s a profile's calls met in a row: how long the next one pauses the budget. */
  private readonly refusalsInARow = new Map<string, number>();
  /** The lane of the calls made inside `inBulk` (every other call is the manager's). */
  private readonly lane = new AsyncLocalStorage<Lane>();

  constructor(
    private readonly store: Store,
    private readonly secrets: SecretStore,
    private readonly emit: Emit,
    private readonly clientOptions: Partial<ServiceClientOptions> = {},
  ) {
    this.policy = { ...DEFAULT_RETRY, ...clientOptions.retry };
  }

  /**
   * Runs `work` with every service call it makes in the bulk lane of the profile's budget: the
   * reads of many strategies, a batch's review and sends, tracking's polls. A manager's own
   * request (a confirmation, an execute of a draft) starts before any of them waiting.
   */
  inBulk<T>(work: () => Promise<T>): Promise<T> {
    return this.lane.run('bulk', work);
  }

  /** The profile's request budget: how many of its requests are at the service now. */
  budget(profileId: string): RequestBudget {
    let budget = this.budgets.get(profileId);
    if (!budget) {
      budget = new RequestBudget();
      this.budgets.set(profileId, budget);
    }
    return budget;
  }

  /**
   * The one place a 429's wait is decided: after a request of the profile was answered 429
   * `refusals` times in a row, the profile's budget pauses for the policy's wait (the service's
   * Retry-After, bounded, with a floor doubling in a row: api/retry.ts); the answer itself
   * halved the requests at once (`call`). True when the request may be asked again (it then waits in the budget's
   * line); false once the policy's attempts are spent (nothing paused: the caller gives up).
   * What the client does not retry itself (the book's reads again, a batch's executes) asks here.
   */
  pauseAfter429(profileId: string, error: unknown, refusals: number): boolean {
    const seconds = isServiceError(error) ? error.details.retryAfterSeconds : undefined;
    const wait = rateLimitedWait(seconds, refusals, this.policy);
    if (wait === undefined) return false;
    this.budget(profileId).pause(wait.delayMs);
    return true;
  }

  client(profileId: string): ServiceClient {
    let client = this.clients.get(profileId);
    if (client) return client;
    const profile = this.store.profiles.get(profileId);
    if (!profile)
      throw new ServiceError({ kind: 'not-found', message: 'This profile no longer exists.' });
    client = createServiceClient({
      ...this.clientOptions,
      baseUrl: profile.baseUrl,
      clientId: profile.clientId,
      onSlowChange: (slow) => this.markSlow(profileId, slow),
      onWait: (info) => {
        // The client waits out a read's 429 in its place; no other request starts meanwhile.
        if (info.reason === 'rate-limited') {
          this.budget(profileId).refused();
          this.budget(profileId).pause(info.delayMs);
        }
        this.clientOptions.onWait?.(info);
      },
      getSecret: async () => {
        const secret = await this.secrets.get(profileId);
        if (secret === null) {
          throw new ServiceError({
            kind: 'no-secret',
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

  /**
   * Runs one call to the service once the profile's budget lets it (`signal` takes it out of
   * the line), and keeps the profile's connectivity up to date. A call makes one request at a
   * time (its retries, a token first), so holding one place it never has two at the service.
   */
  async call<T>(
    profileId: string,
    work: (client: ServiceClient) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const client = this.client(profileId);
    const budget = this.budget(profileId);
    const release = await budget.take(this.lane.getStore() ?? 'manager', signal);
    try {
      const result = await work(client);
      this.refusalsInARow.delete(profileId);
      budget.answered();
      this.markOnline(profileId);
      if (client.hasToken()) this.noteScopes(profileId, client.grantedScopes());
      this.noteRefusal(profileId, null);
      return result;
    } catch (error) {
      this.notePause(profileId, error);
      const refusal = refusalOf(error);
      // A resource that answered was asked with an accepted token: the details are right.
      if (refusal !== null) this.noteRefusal(profileId, refusal);
      else if (isServiceError(error) && error.status !== undefined && error.operation !== 'token')
        this.noteRefusal(profileId, null);
      if (isServiceError(error, 'network', 'timeout')) {
        this.markOffline(profileId, error.message);
      } else if (isServiceError(error) && error.status !== undefined) {
        this.markOnline(profileId);
      }
      // Whatever path it took, a service's echo of the token or secret ends here.
      throw client.redact(error);
    } finally {
      release();
    }
  }

  /**
   * A call answered 429 (its retries spent, or an execute, which is never retried) pauses the
   * profile's budget for the policy's wait after that many 429s of the profile in a row; any
   * other answer ends the row. The caller decides whether to ask again (`pauseAfter429`, with
   * its own request's count, which may pause longer).
   */
  private notePause(profileId: string, error: unknown): void {
    if (!isServiceError(error) || error.status === undefined) return;
    if (!isServiceError(error, 'rate-limited')) {
      this.refusalsInARow.delete(profileId);
      return;
    }
    const refusals = (this.refusalsInARow.get(profileId) ?? 0) + 1;
    this.refusalsInARow.set(profileId, refusals);
    this.budget(profileId).refused();
    // Past the attempts, the longest wait of the row: the pause stays bounded.
    this.pauseAfter429(profileId, error, Math.min(refusals, this.policy.attempts - 1));
  }

  /**
   * The scopes of each new token are stored with the profile, so actions it may not take are
   * disabled from the first call on, not only after an explicit connection test.
   */
  private noteScopes(profileId: string, scopes: string[] | null): void {
    // Null: the service did not say which scopes it granted (unknown, nothing disabled).
    const key = scopes === null ? '(unknown)' : [...scopes].sort().join(' ');
    if (this.scopesSeen.get(profileId) === key) return;
    this.scopesSeen.set(profileId, key);
    this.store.profiles.setGrantedScopes(profileId, scopes);
  }

  /**
   * Asks a service for a token with details not saved yet, on a client of its own that is closed
   * at once: nothing of this profile's state changes.
   */
  async checkCredentials(
    baseUrl: string,
    clientId: string,
    secret: string,
  ): Promise<string[] | null> {
    const client = createServiceClient({
      ...this.clientOptions,
      baseUrl,
      clientId,
      getSecret: async () => secret,
    });
    try {
      return await client.testConnection();
    } catch (error) {
      // The typed secret is not saved yet: the client that sent it takes it out of the echo.
      throw client.redact(error);
    } finally {
      await client.close();
    }
  }

  /** Why the service refused this profile's token request; null when it did not. */
  credentialsProblem(profileId: string): string | null {
    return this.refused.get(profileId) ?? null;
  }

  private noteRefusal(profileId: string, problem: string | null): void {
    if ((this.refused.get(profileId) ?? null) === problem) return;
    if (problem === null) this.refused.delete(profileId);
    else this.refused.set(profileId, problem);
    // The screens refresh the status on this event: the status bar shows the problem or clears it.
    this.announce(profileId, this.isOnline(profileId), this.offline.get(profileId) ?? null);
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
    if (this.isOnline(profileId)) return;
    await waitOn(this.waiters, profileId, signal, probeMs);
  }

  /** Forgets a profile's client (its address or credentials changed, or it was removed). */
  async reset(profileId: string): Promise<void> {
    const client = this.clients.get(profileId);
    this.clients.delete(profileId);
    this.offline.delete(profileId);
    this.scopesSeen.delete(profileId);
    this.refused.delete(profileId);
    await client?.close();
    this.credentialsChanged(profileId);
  }

  /** Wakes whoever waits for this profile's address or secret (a secret entered again). */
  credentialsChanged(profileId: string): void {
    for (const wake of [...(this.credentialWaiters.get(profileId) ?? [])]) wake();
  }

  /**
   * Resolves when the profile's address or secret changes, or after `probeMs` so the caller
   * can look again (a keychain unlocked meanwhile changes nothing the app hears of).
   */
  waitForCredentials(profileId: string, signal: AbortSignal, probeMs = 30_000): Promise<void> {
    return waitOn(this.credentialWaiters, profileId, signal, probeMs);
  }

  async closeAll(): Promise<void> {
    for (const budget of this.budgets.values()) budget.close();
    const all = [...this.clients.values()];
    this.clients.clear();
    await Promise.allSettled(all.map((c) => c.close()));
  }

  /** The profile went offline or online, or its service turned slow or refused its details. */
  private announce(profileId: string, online: boolean, message: string | null): void {
    this.emit({ type: 'connectivity-changed', profileId, online, message });
  }

  private markOnline(profileId: string): void {
    if (!this.offline.delete(profileId)) return;
    this.announce(profileId, true, null);
    for (const wake of [...(this.waiters.get(profileId) ?? [])]) wake();
  }

  private markSlow(profileId: string, slow: boolean): void {
    if (slow) {
      this.slow.add(profileId);
      if (this.isOnline(profileId)) this.announce(profileId, true, SLOW_SERVICE_MESSAGE);
    } else if (this.slow.delete(profileId) && this.isOnline(profileId)) {
      this.announce(profileId, true, null);
    }
  }

  private markOffline(profileId: string, message: string): void {
    const was = this.offline.has(profileId);
    this.offline.set(profileId, message);
    if (!was) this.announce(profileId, false, message);
  }
}

/** Waits until woken through `waiters`, the signal fires, or `ms` passed. */
function waitOn(
  all: Map<string, Set<() => void>>,
  profileId: string,
  signal: AbortSignal,
  ms: number,
): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const waiters = all.get(profileId) ?? new Set();
    all.set(profileId, waiters);
    const done = () => {
      clearTimeout(timer);
      waiters.delete(done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    waiters.add(done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** A token request the service answered with a refusal: the profile's details are wrong. */
function refusalOf(error: unknown): string | null {
  if (!isServiceError(error)) return null;
  if (isServiceError(error, 'no-secret')) {
    return 'The client secret of this profile is not stored: enter it again in the profile.';
  }
  if (error.operation !== 'token') return null;
  if (isServiceError(error, 'invalid-client')) {
    return "The service refused this profile's client id or secret: edit the profile to enter them again.";
  }
  if (isServiceError(error, 'invalid-scope')) return error.message;
  return null;
}
