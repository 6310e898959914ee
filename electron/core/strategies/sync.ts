import type { Strategy } from '../../../shared/domain/resources';
import { DESK_ERROR_MESSAGES, DeskError } from '../../../shared/errors';
import { isServiceError } from '../api';
import type { Store } from '../store';
import type { NewActivityEntry } from '../store/repositories/activity';
import { systemErrorKind, toDeskError } from '../errors';
import type { Connections } from '../profiles/connections';

export interface StrategySyncDeps {
  /** The whole store: the first time a strategy is stored, the activity log notes it was added. */
  store: Store;
  connections: Pick<Connections, 'call'>;
  now(): string;
}

/**
 * What storing a strategy read needs: the strategies repository, and the activity log with the
 * profile's name for the strategy-added entry.
 */
export type StrategyReadStore = Pick<Store, 'strategies' | 'activity' | 'profiles' | 'transaction'>;

/** What one read of a strategy needs: the service, and the store to record it. */
export interface StrategyReadDeps {
  store: StrategyReadStore;
  connections: Pick<Connections, 'call'>;
  now(): string;
}

/**
 * Reads the strategy with its holdings from the service. A failure (not a cancel) is the
 * strategy's "Refresh failed" until a later read stores an answer, whoever read it: the book,
 * a confirmation, a batch's review or send, the read when a rebalance ends.
 */
export async function fetchStrategy(
  deps: StrategyReadDeps,
  profileId: string,
  strategyId: string,
  signal?: AbortSignal,
): Promise<Strategy> {
  try {
    return await deps.connections.call(
      profileId,
      (c) => c.getStrategy(strategyId, { includePositions: true, ...(signal && { signal }) }),
      signal,
    );
  } catch (error) {
    noteReadFailure(deps, profileId, strategyId, error);
    throw error;
  }
}

/**
 * Reads the strategy and stores the answer, as every strategy read is stored (`storeRead`: its
 * "Refresh failed" ended, and its addition logged the first time, in the same transaction).
 */
export async function readStrategy(
  deps: StrategyReadDeps,
  profileId: string,
  strategyId: string,
  signal?: AbortSignal,
): Promise<Strategy> {
  const strategy = await fetchStrategy(deps, profileId, strategyId, signal);
  storeRead(deps.store, profileId, strategy, deps.now());
  return strategy;
}

/**
 * Stores one strategy read (the strategies repository's `recordRead`: whole, its "Refresh
 * failed" ended). The first time a strategy is stored the manager added it: its strategy-added
 * entry is written in the same transaction, the activity log's (fsynced). A refresh of one held
 * already records nothing, and commits without the log's fsync; the check and the write are one
 * transaction, so a strategy removed meanwhile is added again with its entry.
 */
export function storeRead(
  store: StrategyReadStore,
  profileId: string,
  strategy: Strategy,
  syncedAt: string,
): void {
  const { strategies } = store;
  const refreshed =
    strategies.has(profileId, strategy.id) &&
    store.transaction(() => {
      if (!strategies.has(profileId, strategy.id)) return false;
      strategies.recordRead(profileId, strategy, { syncedAt });
      return true;
    });
  if (refreshed) return;
  store.activity.record((append) => {
    if (strategies.recordRead(profileId, strategy, { syncedAt }))
      append(addedEntry(store, profileId, strategy));
  });
}

/**
 * Stores strategies read together (the book's queue) in one transaction, each whole, each new one
 * with its strategy-added entry. With an entry to write, the transaction is the activity log's,
 * committed without its own fsync: the caller waits for `store.durable()` before telling anyone
 * they are added. Returns whether it wrote any entry.
 */
export function storeReadTogether(
  store: StrategyReadStore,
  profileId: string,
  strategies: readonly Strategy[],
  syncedAt: string,
): boolean {
  const anyNew = strategies.some((s) => !store.strategies.has(profileId, s.id));
  if (!anyNew) {
    store.transaction(() => {
      // Nothing ran between the check above and here (one connection, no await): no surprise.
      for (const s of store.strategies.recordReadTogether(profileId, strategies, { syncedAt }))
        throw new Error(`Strategy ${s.id} is new here: it is recorded with its entry.`);
    });
    return false;
  }
  store.activity.record(
    (append) => {
      const profileName = store.profiles.get(profileId)?.name ?? '';
      for (const s of store.strategies.recordReadTogether(profileId, strategies, { syncedAt }))
        append(addedEntry(store, profileId, s, profileName));
    },
    { fsync: false },
  );
  return true;
}

/** The strategy-added entry: what the app holds of the strategy as it was added. */
function addedEntry(
  store: StrategyReadStore,
  profileId: string,
  strategy: Strategy,
  profileName = store.profiles.get(profileId)?.name ?? '',
): NewActivityEntry {
  // The holdings as stored: those the answer carried, or those read back.
  const holdings = strategy.positions ?? store.strategies.holdings(profileId, strategy.id);
  return {
    profileId,
    kind: 'strategy-added',
    strategyId: strategy.id,
    payload: {
      profileName,
      strategyName: strategy.name,
      isLiquidateOnly: strategy.is_liquidate_only,
      holdings: holdings.map((h) => ({ symbol: h.symbol, quantity: h.quantity })),
    },
  };
}

/**
 * A read that failed (not one the manager cancelled) is the strategy's "Refresh failed": also a
 * fresh read that failed at its first step, the known target's version (execution/confirmation.ts).
 */
export function noteReadFailure(
  deps: StrategyReadDeps,
  profileId: string,
  strategyId: string,
  error: unknown,
): void {
  if (isServiceError(error) && error.kind === 'cancelled') return;
  const { kind, message, status } = toDeskError(error);
  try {
    deps.store.strategies.recordReadFailure(profileId, strategyId, {
      kind,
      message,
      status: status ?? null,
      at: deps.now(),
    });
  } catch {
    // The store is closing: the failure is the caller's to report.
  }
}

/**
 * A strategy the book never asked for because the service stopped answering: its "Refresh
 * failed" says so, until a later read stores an answer.
 */
export function noteNotRead(
  deps: Pick<StrategyReadDeps, 'store' | 'now'>,
  profileId: string,
  strategyId: string,
  reason: unknown,
): void {
  const { kind, message, status } = toDeskError(reason);
  deps.store.strategies.recordReadFailure(profileId, strategyId, {
    kind,
    message: `Not read: the service stopped answering (${message})`,
    status: status ?? null,
    at: deps.now(),
  });
}

/**
 * Reading a strategy with its holdings from the service into the cache: the one strategy read.
 * Adding one, refreshing it (the book's queue: `fetch`, then `storeAll`), the confirmation's
 * fresh read (also a batch's review and each item's arm: execution/confirmation.ts), the read
 * when a rebalance ends (tracking), and the sandbox profile's demo strategies all go through
 * here; nothing else asks the client for a strategy or writes its "Refresh failed"
 * (test/unit/lint/one-strategy-read.test.ts). The cache changes only on success.
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
  read(profileId: string, strategyId: string, signal?: AbortSignal): Promise<Strategy> {
    return readStrategy(this.deps, profileId, strategyId, signal);
  }

  /** Reads the strategy with its holdings from the service; a failure is its "Refresh failed". */
  fetch(profileId: string, strategyId: string, signal?: AbortSignal): Promise<Strategy> {
    return fetchStrategy(this.deps, profileId, strategyId, signal);
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
    if (!storeReadTogether(store, profileId, strategies, this.deps.now())) return undefined;
    return store.durable().catch((error: unknown) => {
      throw notOnDisk(error);
    });
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
