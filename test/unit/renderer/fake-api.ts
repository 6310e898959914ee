import type { DeskApi, DeskEvent } from '../../../shared/contract';
import { deskEventsOf } from '../../../shared/event-listeners';
import { Listeners } from '../../../shared/listeners';
import type {
  AppStatus,
  StrategyListItem,
  StrategyView,
  VersionDetail,
  VersionSummary,
} from '../../../shared/views';

/**
 * A stand-in for the contract's API in the renderer's store tests (a unit test of one module):
 * each call is recorded by its channel (`versions.get`), answered by the function the test set
 * for it (or refused, naming the channel), and events are pushed with `emit`.
 */
export function fakeApi(answers: Record<string, (input: never) => unknown> = {}) {
  const calls: { channel: string; input: unknown }[] = [];
  const events = new Listeners<DeskEvent>();
  const area = (name: string) =>
    new Proxy(
      {},
      {
        get: (_, method: string) => async (input: unknown) => {
          const channel = `${name}.${method}`;
          calls.push({ channel, input });
          const answer = answers[channel];
          if (!answer) throw new Error(`The fake API has no answer for ${channel}`);
          return answer(input as never);
        },
      },
    );
  const api = new Proxy(
    {},
    {
      get: (_, name: string) => (name === 'events' ? deskEventsOf(events) : area(name)),
    },
  ) as DeskApi;
  return {
    api,
    calls,
    answers,
    /** The channels called, in order. */
    channels: () => calls.map((c) => c.channel),
    emit: (event: DeskEvent) => events.emit(event),
    listeners: () => events.size,
  };
}

/** Resolves once the promises already settled have run their callbacks. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A promise the test resolves when it chooses (a slow answer). */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A Storage in memory, for the stores that remember a choice across launches. */
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

export const PROFILE = '3f1e8a56-0a8e-4c3c-9a57-6d0b7f1f4a10';
export const OTHER_PROFILE = '6b0c7a1e-2d44-4f3c-8a11-0c9e5d2b7f20';
export const STRATEGY = '0b5f8c9e-1111-4a2b-9c3d-000000000001';
export const OTHER_STRATEGY = '0b5f8c9e-1111-4a2b-9c3d-000000000002';
export const VERSION = '7c1d2e3f-2222-4b3c-8d4e-000000000001';

export function strategyLine(more: Partial<StrategyListItem> = {}): StrategyListItem {
  return {
    id: STRATEGY,
    name: 'Core Equity',
    isLiquidateOnly: false,
    running: false,
    needsAttention: false,
    failedVersionIds: [],
    syncedAt: '2026-01-01T00:00:00.000Z',
    ...more,
  };
}

export function strategyView(more: Partial<StrategyView> = {}): StrategyView {
  return {
    profileId: PROFILE,
    id: STRATEGY,
    name: 'Core Equity',
    description: '',
    feePercent: '0.5',
    isLiquidateOnly: false,
    liquidateOnlyReason: null,
    holdings: [],
    currentTarget: null,
    runningVersionId: null,
    syncedAt: '2026-01-01T00:00:00.000Z',
    ...more,
  };
}

export function versionLine(more: Partial<VersionSummary> = {}): VersionSummary {
  return {
    id: VERSION,
    strategyId: STRATEGY,
    status: 'PENDING',
    cashWeight: '2',
    oldCashWeight: '2',
    scheduledFor: null,
    executedAt: '2026-01-01T00:00:00.000Z',
    insertedAt: '2026-01-01T00:00:00.000Z',
    origin: 'created',
    syncedAt: '2026-01-01T00:00:00.000Z',
    ...more,
  };
}

export function versionDetail(more: Partial<VersionDetail> = {}): VersionDetail {
  return {
    ...versionLine(),
    orders: [],
    positions: [],
    tracking: true,
    trackingProblem: null,
    statusSeen: [],
    ...more,
  } as VersionDetail;
}

export function appStatus(more: Partial<AppStatus> = {}): AppStatus {
  return {
    online: true,
    lastSyncAt: '2026-01-01T00:00:00.000Z',
    runningVersions: 0,
    needsAttention: 0,
    failedUnacknowledged: 0,
    secretStorage: 'keychain',
    secretStorageReason: null,
    credentialsProblem: null,
    ...more,
  };
}

/** A version's status change as the desk announces it. */
export function statusChanged(
  more: Partial<Extract<DeskEvent, { type: 'version-status-changed' }>> = {},
): Extract<DeskEvent, { type: 'version-status-changed' }> {
  return {
    type: 'version-status-changed',
    profileId: PROFILE,
    strategyId: STRATEGY,
    versionId: VERSION,
    previousStatus: 'PENDING',
    status: 'IN_PROGRESS',
    ended: false,
    version: versionLine({ status: 'IN_PROGRESS', syncedAt: '2026-01-01T00:01:00.000Z' }),
    strategy: strategyLine({ running: true, syncedAt: '2026-01-01T00:01:00.000Z' }),
    appStatus: {
      runningVersions: 1,
      lastSyncAt: '2026-01-01T00:01:00.000Z',
      needsAttention: 0,
      failedUnacknowledged: 0,
    },
    settledStrategy: null,
    ...more,
  };
}
