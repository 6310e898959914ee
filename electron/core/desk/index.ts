import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DeskEvent, DeskHandlers } from '../../../shared/contract';
import { isServiceError, type ServiceClientOptions } from '../api';
import { lockDataFolder, type DataFolderLock } from '../data-folder/lock';
import { secureDataFolder } from '../data-folder/permissions';
import { ActivityChecks, recordVersionEnded, recordingJournal } from '../activity';
import { ExecutionJournal } from '../execute';
import { errorFields, openLog, type DeskLog } from '../log/logger';
import type { SecretStore } from '../secrets';
import { unusedExportPath } from '../reports/unused-path';
import { openStore, type Store } from '../store';
import type { Backoff } from '../tracker';
import { Book } from '../book';
import { activityHandlers, activitySummary } from './activity';
import { appStatusHandlers } from './app-status';
import { bookHandlers } from './book';
import { Connections } from './connections';
import { draftHandlers } from './drafts';
import { toDeskError } from './errors';
import { DeskEvents } from './events';
import { guarded } from './guarded';
import { profileHandlers } from './profiles';
import { reportHandlers, type ChooseExportPath } from './reports';
import { SandboxProfiles, type BuiltInSandbox } from './sandbox';
import { rememberingSecrets, withKeychainFailures } from './secrets';
import { versionStatusChanged } from './status-change';
import { strategyHandlers } from './strategies';
import { StrategySync } from './strategy-sync';
import { storeVersionRead, Tracking } from './tracking';
import { VersionImport } from './version-import';
import { versionHandlers } from './versions';

export type { BuiltInSandbox } from './sandbox';

/**
 * The composition root of the desk: the facade the app calls. It implements the contract
 * (shared/contract.ts) by wiring the services of electron/core, each area's handlers given only
 * the services they use. The Electron shell and the browser host both serve exactly this object.
 */

export interface DeskOptions {
  /** The app's data folder: the SQLite file lives here. */
  dataDir: string;
  secretStore: SecretStore;
  /** Where an export goes (the desktop shell opens a save dialog). Default: `<dataDir>/exports/<name>`, numbered when that file exists. */
  chooseExportPath?: ChooseExportPath;
  /**
   * "Try the built-in sandbox": how to start it and its demo data, from whoever starts the app
   * (electron/sandbox's `builtInSandbox`). Without it the desk offers no sandbox.
   */
  sandbox?: BuiltInSandbox;
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
  /** For tests: how long a minute of the book's automatic refresh lasts. */
  bookMinuteMs?: number;
}

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
  let closed = false;
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
  const events = new DeskEvents();
  const emit = (event: DeskEvent) => events.emit(event);
  const secrets = rememberingSecrets(withKeychainFailures(options.secretStore), secretsSeen);
  const connections = new Connections(
    store,
    secrets,
    (profileId, online, message) =>
      emit({ type: 'connectivity-changed', profileId, online, message }),
    options.clientOptions,
  );
  const strategySync = new StrategySync({ store, connections, now });
  const tracking = new Tracking({
    store,
    connections,
    strategySync,
    events,
    log,
    now,
    // Read when announced: the journal below is made after the tracking it starts.
    describeChange: (change) => versionStatusChanged({ store, executions }, change),
    // A followed version ended: its outcome joins the activity log (once per version).
    onEnded: (ended) => {
      try {
        recordVersionEnded(store, ended);
      } catch (error) {
        if (!closed) log.error('The end of a version could not be recorded', errorFields(error));
      }
    },
    ...(options.trackerBackoff !== undefined && { backoff: options.trackerBackoff }),
    ...(options.offlineProbeMs !== undefined && { offlineProbeMs: options.offlineProbeMs }),
    ...(options.credentialsProbeMs !== undefined && {
      credentialsProbeMs: options.credentialsProbeMs,
    }),
  });
  const executions = new ExecutionJournal({
    // Each journal step is written with its activity entry, in one transaction.
    journal: recordingJournal(store, toDeskError),
    saveAcceptedVersion: (entry, version, location) =>
      storeVersionRead(store, entry.profileId, version, {
        origin: 'created',
        location,
        syncedAt: now(),
      }),
    startTracking: (entry, version, location) =>
      tracking.follow({
        profileId: entry.profileId,
        strategyId: entry.strategyId,
        versionId: version.id,
        location,
        status: version.status,
      }),
    isAmbiguous: (error) => isServiceError(error) && error.ambiguous,
    describe: (error) => toDeskError(error).message,
  });
  const activityChecks = new ActivityChecks(store.activity, now);
  store.activity.onAppended((row) =>
    emit({
      type: 'activity-appended',
      profileId: row.profile_id,
      entry: activitySummary(store, row),
    }),
  );
  const versionImport = new VersionImport({ store, connections, tracking, now });
  const sandbox = new SandboxProfiles({
    store,
    secrets,
    connections,
    strategySync,
    versionImport,
    sandbox: options.sandbox ?? null,
    dataDir: options.dataDir,
  });
  const book = new Book({
    store,
    fetch: (profileId, strategyId, signal) => strategySync.fetch(profileId, strategyId, signal),
    storeAll: (profileId, strategies) => strategySync.storeAll(profileId, strategies),
    watchWaits: (profileId, watch) => connections.watchWaits(profileId, watch),
    emit,
    now,
  });
  const exportsDir = join(options.dataDir, 'exports');
  const choosePath: ChooseExportPath =
    options.chooseExportPath ??
    (async (name) => {
      mkdirSync(exportsDir, { recursive: true, mode: 0o700 });
      return unusedExportPath(exportsDir, name);
    });

  const handlers: DeskHandlers = {
    profiles: profileHandlers({
      store,
      secrets,
      connections,
      tracking,
      useSandbox: () => sandbox.use(),
    }),
    strategies: strategyHandlers({ store, executions, strategySync, tracking }),
    drafts: draftHandlers({ store }),
    versions: versionHandlers({
      store,
      connections,
      strategySync,
      tracking,
      versionImport,
      executions,
      emit,
      now,
    }),
    reports: reportHandlers({ store, emit, choosePath }),
    activity: activityHandlers({ store, checks: activityChecks, choosePath, emit, now }),
    book: bookHandlers({ store, book, emit, choosePath, now }),
    app: appStatusHandlers({ store, connections, secretStore: options.secretStore }),
  };

  // Start-up: entries cut off mid-flight become unknown; versions still rebalancing are followed
  // again, once the built-in sandbox has its new address and secret.
  executions.reconcileAtStartup();
  await sandbox
    .resume()
    .catch((error: unknown) =>
      log.error('The built-in sandbox could not resume', errorFields(error)),
    );
  tracking.resumeActive();
  book.startAutoRefresh({
    profiles: () =>
      store.profiles
        .list()
        .filter((p) => connections.credentialsProblem(p.id) === null)
        .map((p) => p.id),
    isOnline: (profileId) => connections.isOnline(profileId),
    ...(options.bookMinuteMs !== undefined && { minuteMs: options.bookMinuteMs }),
  });
  log.info('Strategy desk started', { dataDir: options.dataDir });

  // Every chain is walked once the first screen is shown, in slices off the start-up path: after
  // the first moment with no call for QUIET_MS (the first screen's calls come in bursts), and
  // at the latest LATEST_MS after start. A walk of 100,000 entries shares the main thread for
  // a second or two: it must not stand in the first screen's way.
  const QUIET_MS = 300;
  const LATEST_MS = 5_000;
  const started = Date.now();
  let lastCall = started;
  let walkTimer: ReturnType<typeof setTimeout> | undefined;
  const walkWhenQuiet = () => {
    walkTimer = undefined;
    if (closed) return;
    const now = Date.now();
    if (now - lastCall < QUIET_MS && now - started < LATEST_MS) {
      walkTimer = setTimeout(walkWhenQuiet, QUIET_MS - (now - lastCall));
      return;
    }
    activityChecks.runInBackground().then(
      (check) => {
        if (check.brokenAt) log.error('The activity log does not verify', { ...check.brokenAt });
      },
      (error: unknown) => {
        if (!closed) log.error('The activity log could not be checked', errorFields(error));
      },
    );
  };
  walkTimer = setTimeout(walkWhenQuiet, QUIET_MS);
  return {
    // Asking for the walk's result is no reason to put it off.
    ...guarded(handlers, log, (channel) => {
      if (channel !== 'activity.lastCheck') lastCall = Date.now();
    }),
    store,
    dataFolder,
    knownSecrets,
    log,
    subscribe: (listener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(walkTimer);
      tracking.stopAll();
      book.close();
      events.clear();
      await connections.closeAll();
      await sandbox.close();
      store.close();
      await log.close();
      dataFolder.release();
    },
  };
}
