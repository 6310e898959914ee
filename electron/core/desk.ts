import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DeskEvent, DeskHandlers } from '../../shared/contract';
import { lockDataFolder, type DataFolderLock } from './data-folder/lock';
import { secureDataFolder } from './data-folder/permissions';
import { errorFields, openLog, type DeskLog } from './log/logger';
import type { ServiceClientOptions } from './api';
import { isServiceError } from './api';
import { Connections } from './desk/connections';
import type { DeskContext } from './desk/context';
import { settleTarget } from './desk/confirmation';
import { lastSyncAt, versionStatusChanged } from './desk/status-change';
import { draftHandlers } from './desk/drafts';
import { toDeskError } from './desk/errors';
import { profileHandlers } from './desk/profiles';
import { reportHandlers, type ChooseExportPath } from './desk/reports';
import { rememberingSecrets, withKeychainFailures } from './desk/secrets';
import { storeVersionRead } from './desk/tracking';
import { SandboxProfiles, defaultStartSandbox, type StartEmbeddedSandbox } from './desk/sandbox';
import { strategyHandlers } from './desk/strategies';
import { versionHandlers } from './desk/versions';
import { ExecutionJournal } from './execute';
import {
  ActivityChecks,
  describeExecutionFailure,
  recordVersionEnded,
  recordingJournal,
} from './activity';
import { activityHandlers, activitySummary } from './desk/activity';
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
  /** How long the tracker waits for a secret to be entered before it looks again. */
  credentialsProbeMs?: number;
  /** Who holds the data folder, as a second process names it ("the browser host"). */
  ownerName?: string;
}

/** Failures that only new credentials (an address, a secret, a client) can cure. */
const CREDENTIAL_FAILURES: ReadonlySet<string> = new Set([
  'unauthorized',
  'forbidden',
  'invalid_client',
  'invalid_scope',
  'no_secret',
]);

export type Desk = DeskHandlers & {
  subscribe(listener: (event: DeskEvent) => void): () => void;
  /** The desk's store, for tests and the hosts' diagnostics. */
  readonly store: Store;
  /** Every profile's client secret and every live token: redacted from whatever crosses or is logged. */
  knownSecrets(): Promise<string[]>;
  /** This process's hold on the data folder (released by close). */
  readonly dataFolder: DataFolderLock;
  /** The rotating log under `<data folder>/logs`, secrets redacted. */
  readonly log: DeskLog;
  close(): Promise<void>;
};

export async function createDesk(options: DeskOptions): Promise<Desk> {
  secureDataFolder(options.dataDir);
  const dataFolder = lockDataFolder(options.dataDir, {
    app: options.ownerName ?? 'Strategy desk',
    ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
  });
  // What the log and everything crossing to the renderer are cleaned of: every profile's secret
  // (read from the keychain once, then kept as the desk itself sets and deletes them) and every
  // live token.
  const secretsSeen = new Map<string, string | null>();
  const knownSecrets = async (): Promise<string[]> => {
    const unread = store.profiles.list().filter((p) => !secretsSeen.has(p.id));
    await Promise.all(
      unread.map(async (p) => {
        const secret = await options.secretStore.get(p.id).catch(() => null);
        if (!secretsSeen.has(p.id)) secretsSeen.set(p.id, secret);
      }),
    );
    const stored = [...secretsSeen.values()].filter((s): s is string => !!s);
    return [...stored, ...connections.liveTokens()];
  };
  let store: Store;
  let log: DeskLog;
  try {
    store = openStore(join(options.dataDir, 'strategy-desk.sqlite'), {
      ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
    });
  } catch (error) {
    dataFolder.release();
    throw error;
  }
  try {
    log = await openLog(options.dataDir, { knownSecrets });
  } catch (error) {
    store.close();
    dataFolder.release();
    throw error;
  }
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
  const secrets = rememberingSecrets(withKeychainFailures(options.secretStore), secretsSeen);
  const connections = new Connections(
    store,
    secrets,
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
      storeVersionRead(store, entry.profileId, version, { syncedAt: now() }),
    waitUntilOnline: (profileId, signal) =>
      connections.waitUntilOnline(profileId, signal, options.offlineProbeMs),
    // A version that is gone will not come back by polling.
    isFinalFailure: (error) => isServiceError(error) && error.kind === 'not_found',
    // Missing or refused credentials come back when the manager enters them: wait for that.
    needsCredentials: (error) => isServiceError(error) && CREDENTIAL_FAILURES.has(error.kind),
    waitForCredentials: (profileId, signal) =>
      connections.waitForCredentials(profileId, signal, options.credentialsProbeMs),
    describeFailure: (error) => toDeskError(error).message,
    now,
    onEvent: (event) => {
      if (event.type === 'tracking-changed') {
        const { profileId, strategyId, versionId } = event;
        emit({ type: 'version-tracking-changed', profileId, strategyId, versionId });
      }
      if (event.type === 'status-changed') {
        const { profileId, strategyId, versionId, previousStatus, status, ended } = event;
        const announce = () => {
          // Nobody listens once the desk is closing (its store may be closed already).
          if (listeners.size === 0) return;
          const change = { profileId, strategyId, versionId, previousStatus, status, ended };
          const announced = versionStatusChanged(ctx, change);
          if (announced) emit(announced);
        };
        // At the end, the holdings are read at once (and the target they settled on noted) first.
        if (ended)
          void settleTarget(store, connections, now, event)
            // A store closed meanwhile (the app quitting) must not stop the announcement.
            .catch(() => undefined)
            .then(() => recordEnd(event))
            .then(announce)
            .catch((error: unknown) =>
              log.error('A version status change could not be announced', errorFields(error)),
            );
        else announce();
      }
    },
    ...(options.trackerBackoff !== undefined && { backoff: options.trackerBackoff }),
  });
  const executions = new ExecutionJournal({
    // Each journal step is written with its activity entry, in one transaction.
    journal: recordingJournal(store),
    saveAcceptedVersion: (entry, version, location) =>
      storeVersionRead(store, entry.profileId, version, {
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
    describe: (error) => describeExecutionFailure(store, toDeskError(error)),
  });
  const activityChecks = new ActivityChecks(store.activity, now);
  store.activity.onAppended((row) =>
    emit({
      type: 'activity-appended',
      profileId: row.profile_id,
      entry: activitySummary(store, row),
    }),
  );
  /** A followed version ended: its outcome joins the activity log (once per version). */
  const recordEnd = (ended: { profileId: string; strategyId: string; versionId: string }) => {
    try {
      recordVersionEnded(store, ended);
    } catch (error) {
      if (!closed) log.error('The end of a version could not be recorded', errorFields(error));
    }
  };
  const ctx: DeskContext = {
    store,
    secrets,
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
      mkdirSync(exportsDir, { recursive: true, mode: 0o700 });
      return join(exportsDir, name);
    });

  const handlers: DeskHandlers = {
    profiles: profileHandlers(ctx, () => sandbox.use()),
    strategies: strategyHandlers(ctx),
    drafts: draftHandlers(ctx),
    versions: versionHandlers(ctx),
    reports: reportHandlers(ctx, choosePath),
    activity: activityHandlers({ store, checks: activityChecks, choosePath, emit, now }),
    app: {
      async status() {
        const profiles = store.profiles.list();
        return {
          online: profiles.every((p) => connections.isOnline(p.id)),
          lastSyncAt: lastSyncAt(store),
          // The same source as each strategy's running version in the sidebar.
          runningVersions: store.versions.listActive().length,
          needsAttention: store.journal.listInFlight().filter((e) => e.state === 'unknown').length,
          secretStorage: options.secretStore.kind === 'keychain' ? 'keychain' : 'session',
          secretStorageReason: options.secretStore.fallbackReason,
          credentialsProblem:
            profiles.map((p) => connections.credentialsProblem(p.id)).find((m) => m !== null) ??
            null,
        };
      },
    },
  };

  // Start-up: entries cut off mid-flight become unknown; versions still rebalancing are followed
  // again, once the built-in sandbox has its new address and secret.
  executions.reconcileAtStartup();
  await sandbox
    .resume()
    .catch((error: unknown) =>
      log.error('The built-in sandbox could not resume', errorFields(error)),
    );
  for (const v of store.versions.listActive()) {
    tracker.track({
      profileId: v.profile_id,
      strategyId: v.strategy_id,
      versionId: v.id,
      location: v.location,
      status: v.status,
    });
  }
  log.info('Strategy desk started', { dataDir: options.dataDir });

  let closed = false;
  // Every chain is walked once the first screen is on its way, in slices off the start-up path.
  setImmediate(() => {
    if (closed) return;
    activityChecks.runInBackground().then(
      (check) => {
        if (check.brokenAt) log.error('The activity log does not verify', { ...check.brokenAt });
      },
      (error: unknown) => {
        if (!closed) log.error('The activity log could not be checked', errorFields(error));
      },
    );
  });
  return {
    ...guarded(handlers, log),
    store,
    dataFolder,
    knownSecrets,
    log,
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
      await log.close();
      dataFolder.release();
    },
  };
}

/**
 * Every handler throws only DeskErrors, so both hosts pass errors on unchanged. Input is
 * validated once, by the dispatcher both hosts call through (electron/shell/dispatch.ts).
 */
function guarded(handlers: DeskHandlers, log: DeskLog): DeskHandlers {
  const out: Record<string, Record<string, (input: unknown) => Promise<unknown>>> = {};
  for (const [area, methods] of Object.entries(handlers) as [
    keyof DeskHandlers,
    Record<string, (i: unknown) => Promise<unknown>>,
  ][]) {
    out[area] = {};
    for (const [name, fn] of Object.entries(methods)) {
      out[area][name] = async (input: unknown) => {
        try {
          return await fn(input);
        } catch (error) {
          const deskError = toDeskError(error);
          // Our own failure: the manager sees a plain sentence, the log keeps what happened.
          if (deskError.kind === 'internal' || deskError.kind.startsWith('store-')) {
            log.error(`${area}.${name} failed`, errorFields(error));
          }
          throw deskError;
        }
      };
    }
  }
  return out as unknown as DeskHandlers;
}
