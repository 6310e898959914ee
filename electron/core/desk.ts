import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { contract, type DeskEvent, type DeskHandlers } from '../../shared/contract';
import type { ServiceClientOptions } from './api';
import { isServiceError } from './api';
import { Connections } from './desk/connections';
import type { DeskContext } from './desk/context';
import { settleTarget } from './desk/confirmation';
import { draftHandlers } from './desk/drafts';
import { toDeskError } from './desk/errors';
import { profileHandlers } from './desk/profiles';
import { reportHandlers, type ChooseExportPath } from './desk/reports';
import { SandboxProfiles, defaultStartSandbox, type StartEmbeddedSandbox } from './desk/sandbox';
import { strategyHandlers } from './desk/strategies';
import { versionHandlers } from './desk/versions';
import { ExecutionJournal } from './execute';
import type { SecretStore } from './secrets';
import { openStore, type Store } from './store';
import { VersionTracker, type Backoff } from './tracker';

/**
 * The facade the app calls: it implements the contract (shared/contract.ts)
 * from the services of electron/core. The Electron shell and the browser host
 * both serve exactly this object.
 */

export interface DeskOptions {
  /** The app's data folder: the SQLite file lives here. */
  dataDir: string;
  secretStore: SecretStore;
  /** Where an export goes (the desktop shell opens a save dialog). Default: `<dataDir>/exports/<name>`. */
  chooseExportPath?: ChooseExportPath;
  /** Starts the built-in sandbox for "Try the built-in sandbox". */
  startSandbox?: StartEmbeddedSandbox;
  /** better-sqlite3 binary for the Electron build. */
  nativeBinding?: string;
  /** For tests: client timeouts and retry policy. */
  clientOptions?: Partial<ServiceClientOptions>;
  /** For tests: how fast the tracker polls. */
  trackerBackoff?: Partial<Backoff>;
  /** How long the tracker waits between probes while a profile is offline. */
  offlineProbeMs?: number;
}

export type Desk = DeskHandlers & {
  subscribe(listener: (event: DeskEvent) => void): () => void;
  /** The desk's store, for tests and the hosts' diagnostics. */
  readonly store: Store;
  close(): Promise<void>;
};

export async function createDesk(options: DeskOptions): Promise<Desk> {
  mkdirSync(options.dataDir, { recursive: true });
  const store = openStore(join(options.dataDir, 'strategy-desk.sqlite'), {
    ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
  });
  const now = () => new Date().toISOString();
  const listeners = new Set<(event: DeskEvent) => void>();
  const emit = (event: DeskEvent) => {
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // One broken listener must not stop the others from hearing about a version.
      }
    }
  };
  const connections = new Connections(
    store,
    options.secretStore,
    (profileId, online, message) =>
      emit({ type: 'connectivity-changed', profileId, online, message }),
    options.clientOptions,
  );
  const tracker = new VersionTracker({
    fetchVersion: (entry) =>
      connections.call(entry.profileId, (c) =>
        entry.location
          ? c.getVersionAt(entry.location)
          : c.getVersion(entry.strategyId, entry.versionId, { orders: true, positions: true }),
      ),
    saveVersion: (entry, version) =>
      store.versions.upsert(entry.profileId, version, { syncedAt: now() }),
    waitUntilOnline: (profileId, signal) =>
      connections.waitUntilOnline(profileId, signal, options.offlineProbeMs),
    // A version that is gone, or a profile that lost its access, will not come back by polling.
    isFinalFailure: (error) =>
      isServiceError(error) &&
      ['not_found', 'forbidden', 'unauthorized', 'invalid_client', 'no_secret', 'closed'].includes(
        error.kind,
      ),
    describeFailure: (error) => toDeskError(error).message,
    onEvent: (event) => {
      if (event.type === 'status-changed') {
        const { profileId, strategyId, versionId, previousStatus, status, ended } = event;
        const announce = () =>
          emit({
            type: 'version-status-changed',
            profileId,
            strategyId,
            versionId,
            previousStatus,
            status,
            ended,
          });
        // At the end, the holdings are read at once (and the target they settled on noted) first.
        if (ended)
          void settleTarget(store, connections, now, event)
            // A store closed meanwhile (the app quitting) must not stop the announcement.
            .catch(() => undefined)
            .finally(announce);
        else announce();
      }
    },
    ...(options.trackerBackoff !== undefined && { backoff: options.trackerBackoff }),
  });
  const executions = new ExecutionJournal({
    journal: store.journal,
    saveAcceptedVersion: (entry, version, location) =>
      store.versions.upsert(entry.profileId, version, {
        origin: 'created',
        location,
        syncedAt: now(),
      }),
    startTracking: (entry, version, location) =>
      tracker.track({
        profileId: entry.profileId,
        strategyId: entry.strategyId,
        versionId: version.id,
        location,
        status: version.status,
      }),
    isAmbiguous: (error) => isServiceError(error) && error.ambiguous,
    describe: (error) => toDeskError(error).message,
  });
  const ctx: DeskContext = {
    store,
    secrets: options.secretStore,
    connections,
    tracker,
    executions,
    emit,
    now,
  };
  const sandbox = new SandboxProfiles(
    ctx,
    options.startSandbox ?? defaultStartSandbox,
    options.dataDir,
  );
  const exportsDir = join(options.dataDir, 'exports');
  const choosePath: ChooseExportPath =
    options.chooseExportPath ??
    (async (name) => {
      mkdirSync(exportsDir, { recursive: true });
      return join(exportsDir, name);
    });

  const handlers: DeskHandlers = {
    profiles: profileHandlers(ctx, () => sandbox.use()),
    strategies: strategyHandlers(ctx),
    drafts: draftHandlers(ctx),
    versions: versionHandlers(ctx),
    reports: reportHandlers(ctx, choosePath),
    app: {
      async status() {
        const profiles = store.profiles.list();
        const synced = profiles
          .flatMap((p) => store.strategies.list(p.id).map((s) => s.synced_at))
          .sort();
        return {
          online: profiles.every((p) => connections.isOnline(p.id)),
          lastSyncAt: synced.at(-1) ?? null,
          runningVersions: tracker.size,
          needsAttention: store.journal.listInFlight().filter((e) => e.state === 'unknown').length,
          secretStorage: options.secretStore.kind === 'keychain' ? 'keychain' : 'session',
          secretStorageReason: options.secretStore.fallbackReason,
        };
      },
    },
  };

  // Start-up: entries cut off mid-flight become unknown; versions still rebalancing are followed again.
  executions.reconcileAtStartup();
  for (const v of store.versions.listActive()) {
    tracker.track({
      profileId: v.profile_id,
      strategyId: v.strategy_id,
      versionId: v.id,
      location: v.location,
      status: v.status,
    });
  }
  await sandbox.resume().catch(() => undefined);

  let closed = false;
  return {
    ...guarded(handlers),
    store,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      tracker.stopAll();
      listeners.clear();
      await connections.closeAll();
      await sandbox.close();
      store.close();
    },
  };
}

/**
 * Every handler validates its input against the contract (whoever calls it)
 * and throws only DeskErrors, so both hosts pass errors on unchanged.
 */
function guarded(handlers: DeskHandlers): DeskHandlers {
  const out: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const [area, methods] of Object.entries(handlers) as [
    keyof DeskHandlers,
    Record<string, (i: unknown) => Promise<unknown>>,
  ][]) {
    out[area] = {};
    for (const [name, fn] of Object.entries(methods)) {
      const schema = (contract[area] as Record<string, { input: { parse(v: unknown): unknown } }>)[
        name
      ]!.input;
      out[area][name] = async (input: unknown) => {
        try {
          return await fn(schema.parse(input ?? {}));
        } catch (error) {
          throw toDeskError(error);
        }
      };
    }
  }
  return out as unknown as DeskHandlers;
}
