import type { Strategy } from '../../../shared/domain/resources';
import { recordStrategyStored } from '../activity';
import { DESK_ERROR_MESSAGES, DeskError } from '../../../shared/errors';
import { isServiceError } from '../api';
import type { Store } from '../store';
import { systemErrorKind, toDeskError } from '../desk/errors';
import type { Connections } from '../profiles/connections';

export interface StrategySyncDeps {
  /** The whole store: the first time a strategy is stored, the activity log notes it was added. */
  store: Store;
  connections: Pick<Connections, 'call'>;
  now(): string;
}

/**
 * Reading a strategy with its holdings from the service into the cache: adding one, refreshing
 * it, the confirmation's fresh read, the read when a rebalance ends, and the sandbox profile's
 * demo strategies all go through here. The cache changes only on success.
 */
export class StrategySync {
  /**
   * Syncs under way: a second sync of the same strategy joins the one in flight (one request,
   * one answer), and the manager can cancel it while it waits on a slow service.
   */
  private readonly syncing = new Map<
    string,
    { controller: AbortController; done: Promise<Strategy> }
  >();

  constructor(private readonly deps: StrategySyncDeps) {}

  /** Reads the strategy now and stores it (no joining: a confirmation wants its own read). */
  async read(profileId: string, strategyId: string, signal?: AbortSignal): Promise<Strategy> {
    const strategy = await this.fetch(profileId, strategyId, signal);
    this.store(profileId, strategy);
    return strategy;
  }

  /** Reads the strategy with its holdings from the service; a failure is noted for the book. */
  async fetch(profileId: string, strategyId: string, signal?: AbortSignal): Promise<Strategy> {
    try {
      return await this.deps.connections.call(profileId, (c) =>
        c.getStrategy(strategyId, { includePositions: true, ...(signal && { signal }) }),
      );
    } catch (error) {
      this.noteFailure(profileId, strategyId, error);
      throw error;
    }
  }

  /** Stores one strategy as read, in one transaction (its addition logged the first time). */
  store(profileId: string, strategy: Strategy): void {
    const { store } = this.deps;
    // The book's "refresh failed" ends with the data that replaces it, in one transaction.
    recordStrategyStored(
      store,
      profileId,
      strategy.id,
      () => {
        store.strategies.upsert(profileId, strategy, { syncedAt: this.deps.now() });
        store.book.clearFailure(profileId, strategy.id);
      },
      strategy,
    );
  }

  /**
   * Stores many strategies read together (the book's queue), in one transaction: each one whole,
   * as one read would. When any is new, that transaction is the activity log's, and the promise
   * returned resolves once the WAL holding it is fsynced (off the event loop, one fsync shared by
   * the groups that wait together): the strategies count as added only then. A refresh of
   * strategies held already writes no activity entry, so waits for no fsync (undefined).
   */
  storeAll(profileId: string, strategies: readonly Strategy[]): Promise<void> | undefined {
    const { store } = this.deps;
    // The book's "refresh failed" ends with the data that replaces it, in the same transaction.
    const added = store.strategies.recordReadTogether(profileId, strategies, {
      syncedAt: this.deps.now(),
      each: (strategy) => store.book.clearFailure(profileId, strategy.id),
    });
    if (!added) return undefined;
    return store.durable().catch((error: unknown) => {
      throw notOnDisk(error);
    });
  }

  /** A read that failed (not one the manager cancelled) is the book's "refresh failed". */
  private noteFailure(profileId: string, strategyId: string, error: unknown): void {
    if (isServiceError(error) && error.kind === 'cancelled') return;
    const { kind, message, status } = toDeskError(error);
    try {
      this.deps.store.book.recordFailure(profileId, strategyId, {
        kind,
        message,
        status: status ?? null,
        at: this.deps.now(),
      });
    } catch {
      // The store is closing: the failure is the caller's to report, not the book's.
    }
  }

  /** Reads and stores the strategy, joining a sync of it already under way. */
  sync(profileId: string, strategyId: string): Promise<Strategy> {
    const key = `${profileId}/${strategyId}`;
    const running = this.syncing.get(key);
    if (running) return running.done;
    const controller = new AbortController();
    // Started on the next microtask, so it is registered before it can settle.
    const done = Promise.resolve().then(async () => {
      try {
        return await this.read(profileId, strategyId, controller.signal);
      } finally {
        this.syncing.delete(key);
      }
    });
    this.syncing.set(key, { controller, done });
    return done;
  }

  /** Stops a sync under way (it fails with kind `cancelled`); the cache keeps the last one. */
  cancel(profileId: string, strategyId: string): void {
    this.syncing.get(`${profileId}/${strategyId}`)?.controller.abort();
  }
}

/**
 * The disk refused the fsync of strategies committed already: they are in the app (each whole,
 * with its activity entry), but a power cut could take them; the manager is told so, in words.
 */
function notOnDisk(error: unknown): DeskError {
  toDeskError(error); // logs the system's own words
  const kind = systemErrorKind(error);
  const why = kind ? ` (${DESK_ERROR_MESSAGES[kind]})` : '';
  return new DeskError({
    kind: kind ?? 'internal',
    message: `Stored, but the disk did not confirm the write${why}: after a power cut it may be missing; add it again then.`,
  });
}
