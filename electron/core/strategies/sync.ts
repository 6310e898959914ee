import type { Strategy } from '../../../shared/domain/resources';
import { recordStrategyStored } from '../activity';
import type { Store } from '../store';
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
    const strategy = await this.deps.connections.call(profileId, (c) =>
      c.getStrategy(strategyId, { includePositions: true, ...(signal && { signal }) }),
    );
    recordStrategyStored(this.deps.store, profileId, strategyId, () =>
      this.deps.store.strategies.upsert(profileId, strategy, { syncedAt: this.deps.now() }),
    );
    return strategy;
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
