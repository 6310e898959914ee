import { join } from 'node:path';
import type { DeskEvent, DeskHandlers } from '../../../shared/contract';
import { Listeners } from '../../../shared/listeners';
import { ActivityChecks } from '../activity';
import type { ServiceClientOptions } from '../api';
import { Book } from '../book';
import { openDataFolder } from '../data-folder/open';
import type { DataFolderLock } from '../data-folder/lock';
import { Batches } from '../batches/batches';
import { computerRestartedSince } from '../execution/boot';
import { Execution } from '../execution/execute';
import { Recovery } from '../execution/recovery';
import { Restrictions, checkEndedRebalance, restrictedOrderSignals } from '../restrictions';
import { errorFields, type DeskLog } from '../log/logger';
import { Connections } from '../profiles/connections';
import { SandboxProfiles, type BuiltInSandbox } from '../onboarding/sandbox';
import { rememberingSecrets, secretsToRedact, withKeychainFailures } from '../profiles/secrets';
import { exportsOf } from '../exports';
import { partialExports, removeUnfinishedExports } from '../reports/partials';
import { exportsInto } from '../reports/unused-path';
import type { SecretStore } from '../secrets';
import type { Store } from '../store';
import { StrategySync } from '../strategies/sync';
import type { Backoff } from '../tracking/tracker';
import { Tracking } from '../tracking/tracking';
import { VersionImport } from '../versions/import';
import { UnexecutedVersions } from '../versions/unexecuted';
import { activityAppended } from '../views/activity';
import { versionStatusChanged } from '../views/strategy';
import { ownSignalSources } from '../attention/queue';
import { snapshotAtRebalanceEnd } from '../attention/snapshot';
import { activityHandlers } from './activity';
import { attentionHandlers } from './attention';
import { appStatusHandlers } from './app-status';
import { bookHandlers } from './book';
import { batchHandlers } from './batches';
import { draftHandlers } from './drafts';
import { firstScreenHandler } from './first-screen';
import { guarded } from './guarded';
import { modelHandlers } from './models';
import { profileHandlers } from './profiles';
import { reportHandlers, type ChooseExportPath } from './reports';
import { restrictionHandlers } from './restrictions';
import { strategyHandlers } from './strategies';
import { teamHandlers } from './team';
import { TeamConnections } from '../team/connection';
import { TeamGate, type ReleaseRetry } from '../team/gate';
import { TeamModelCache } from '../models/team-sync';
import { versionHandlers } from './versions';

export type { BuiltInSandbox } from '../onboarding/sandbox';

/**
 * The composition root of the desk: the facade the app calls. It implements the contract
 * (shared/contract.ts) by wiring the services of electron/core, each area's handlers given only
 * the services they use. The Electron shell and the browser host both serve exactly this object.
 * Nothing is decided here: each flow lives in its own folder (execution/, tracking/, versions/…,
 * docs/architecture.md), and the functions handed over below only pass things on.
 */

export interface DeskOptions {
  /** The app's data folder: the SQLite file lives here. */
  dataDir: string;
  secretStore: SecretStore;
  /** Where an export goes (the desktop shell opens a save dialog). Default: `<dataDir>/exports/<name>`, numbered when that file exists. */
  chooseExportPath?: ChooseExportPath;
  /**
   * Where the save dialog offers to export (the desktop app: Documents), searched at start for
   * the temporary files of exports a killed process left; `<dataDir>/exports` always is.
   */
  exportFolders?: readonly string[];
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
  /**
   * How long a followed version may stay unknown to the service (a read replica lagging) before
   * following it stops; default 2 minutes.
   */
  versionLagMs?: number;
  /** How long the tracker waits between probes while a profile is offline. */
  offlineProbeMs?: number;
  /** The first and longest wait before a team claim's release is tried again (tests). */
  claimReleaseRetry?: ReleaseRetry;
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
  /**
   * The one execution flow (execution/execute.ts): `versions.execute` sends a draft's rows
   * through it, and a batch (one model's rows for many strategies) sends each strategy's rows
   * through the same `execute`, with every guarantee (journal, claim, activity entry, checks).
   */
  readonly execution: Execution;
  /** Executions whose outcome is unknown: retried with their key or dismissed (execution/recovery.ts). */
  readonly recovery: Recovery;
  /** The batch flow (batches/): one model revision reviewed and executed for many strategies. */
  readonly batchFlow: Batches;
  /**
   * Each profile's team store (team/connection.ts): `teams.teamPool(profileId)` is the profile's
   * one pg Pool, connected as its member (null without a team), for every reader of the team.
   */
  readonly teams: TeamConnections;
  /**
   * The team's claims at the one execution flow (team/gate.ts); a release the team store could
   * not take yet is tried again, at once when the profile's listening connection is back.
   */
  readonly teamClaims: TeamGate;
  /** The client secret of every profile there is and every live token: redacted from the log. */
  knownSecrets(): Promise<string[]>;
  /** This process's hold on the data folder (released by close). */
  readonly dataFolder: DataFolderLock;
  /** The rotating log under `<data folder>/logs`, secrets redacted. */
  readonly log: DeskLog;
  close(): Promise<void>;
};

export async function createDesk(options: DeskOptions): Promise<Desk> {
  let closed = false;
  // Each profile's secret as last read, set or deleted by the desk (profiles/secrets.ts).
  const secretsSeen = new Map<string, string | null>();
  const knownSecrets = () =>
    secretsToRedact(store, options.secretStore, secretsSeen, () => connections.liveTokens());
  const folder = await openDataFolder({
    dataDir: options.dataDir,
    app: options.ownerName ?? 'Strategy desk',
    ...(options.nativeBinding !== undefined && { nativeBinding: options.nativeBinding }),
    knownSecrets,
  });
  const { store, log, dataFolder } = folder;
  const now = () => new Date().toISOString();
  // The hosts' events. A host whose listener throws must not keep the others from hearing.
  const events = new Listeners<DeskEvent>({ onListenerError: () => undefined });
  // Every host event is derived here, where the flows are handed `emit`: the book's rows a
  // version or the journal moved are announced with them (throttled, book/index.ts).
  const emit = (event: DeskEvent): void => {
    events.emit(event);
    if (event.type === 'journal-changed') book.rowsMayHaveMoved(event.profileId);
    // The team store announced a model or an assignment (or listening came back, or strategies
    // were added): the desk's cache of the team's library reads it (`model-changed`).
    if (event.type === 'team-changed' && event.topic === 'connection' && event.connected)
      teamGate.retryNow(event.profileId);
    teamModels.heard(event)?.catch(teamModelsFault);
  };
  const secrets = rememberingSecrets(withKeychainFailures(options.secretStore), secretsSeen);
  const connections = new Connections(store, secrets, emit, options.clientOptions);
  const strategySync = new StrategySync({ store, connections, now });
  const tracking = new Tracking({
    store,
    connections,
    log,
    now,
    ...(options.trackerBackoff !== undefined && { backoff: options.trackerBackoff }),
    ...(options.versionLagMs !== undefined && { versionLagMs: options.versionLagMs }),
    ...(options.offlineProbeMs !== undefined && { offlineProbeMs: options.offlineProbeMs }),
    ...(options.credentialsProbeMs !== undefined && {
      credentialsProbeMs: options.credentialsProbeMs,
    }),
  });
  const { tracker } = tracking;
  // A profile in a team connects to its team store as its member; without one nothing runs.
  const team = new TeamConnections({
    store,
    secrets,
    emit,
    onListenProblem: (profileId, error) =>
      log.warn('The team store stopped answering; listening again shortly', {
        profileId,
        ...errorFields(error),
      }),
  });
  const teamModelsFault = (error: unknown) =>
    log.warn('The team’s models could not be read yet; read again at the next notice', {
      ...errorFields(error),
    });
  const teamModels = new TeamModelCache(store, team, emit, (profileId, revisionId, why) =>
    log.warn('A revision of the team’s library was left out: it cannot be trusted', {
      profileId,
      revisionId,
      why,
    }),
  );
  const teamGate = new TeamGate(
    team,
    (claim, error) =>
      log.warn('A team claim could not be released yet; it is tried again', {
        profileId: claim.profileId,
        strategyId: claim.strategyId,
        ...errorFields(error),
      }),
    options.claimReleaseRetry,
  );
  const execution = new Execution({ store, connections, tracker, emit, now, team: teamGate });
  const recovery = new Recovery(store, execution);
  const batches = new Batches({
    store,
    execution,
    emit,
    tracking,
    now,
    connections,
    logFault: (batchId, error) =>
      log.error('A batch stopped sending on a fault', { batchId, ...errorFields(error) }),
  });
  const activityChecks = new ActivityChecks(store.activity, now);
  store.activity.onAppended((row) => emit(activityAppended(store, row)));
  const unexecuted = new UnexecutedVersions({ store, connections, now });
  const versionImport = new VersionImport({
    store,
    connections,
    strategySync,
    tracker,
    unexecuted,
    now,
  });
  const sandbox = new SandboxProfiles({
    store,
    secrets,
    connections,
    strategySync,
    versionImport,
    execution,
    sandbox: options.sandbox ?? null,
    dataDir: options.dataDir,
  });
  const book = new Book({
    store,
    strategySync,
    connections,
    emit,
    now,
    onAnnounceFault: (profileId, error) =>
      log.warn("The book's rows could not be announced; the next change announces them", {
        profileId,
        ...errorFields(error),
      }),
  });
  // Tracking's domain events, told to the hosts with what every screen shows of them (built only
  // while a host listens), and the book's rows they moved.
  tracking.onStatusChanged((change) => {
    // A rebalance that ended: its orders against the restrictions it was sent under, stored
    // before its end is announced.
    if (change.ended) checkEndedRebalance(store, change.profileId, change.versionId, now());
    const announced = events.size > 0 ? versionStatusChanged(store, change) : null;
    if (announced) emit(announced);
    book.rowsMayHaveMoved(change.profileId);
  });
  tracking.onTrackingChanged((change) => emit({ type: 'version-tracking-changed', ...change }));
  // A rebalance that ended: the holdings its end's read stored become the attention queue's
  // snapshot (core/attention/snapshot.ts).
  tracking.onVersionEnded((ended) => {
    snapshotAtRebalanceEnd(store, ended, now());
    // A desk in a team: the execution's claim leaves once its rebalance ended (team/gate.ts).
    if (!team.teamOf(ended.profileId)) return;
    const entry = store.journal
      .listForStrategy(ended.profileId, ended.strategyId)
      .find((e) => e.versionId === ended.versionId);
    if (entry) teamGate.release(entry, `ended: version ${ended.versionId} ${ended.status ?? ''}`);
  });
  const exportsDir = join(options.dataDir, 'exports');
  const partial = partialExports(store.settings);
  const exports = exportsOf({
    choosePath: options.chooseExportPath ?? exportsInto(exportsDir),
    partial,
    emit,
  });

  const profileArea = profileHandlers({
    store,
    secrets,
    connections,
    tracking,
    teams: team,
    useSandbox: () => sandbox.use(),
  });
  const bookArea = bookHandlers({ store, book, exports, now });
  const handlers: DeskHandlers = {
    profiles: profileArea,
    strategies: strategyHandlers({
      store,
      strategySync,
      tracking,
      onAdded: (profileId) => void teamModels.strategiesAdded(profileId)?.catch(teamModelsFault),
    }),
    drafts: draftHandlers({ store }),
    versions: versionHandlers({
      store,
      connections,
      tracker,
      versionImport,
      execution,
      recovery,
      unexecuted,
      now,
    }),
    reports: reportHandlers({ store, exports }),
    activity: activityHandlers({ store, checks: activityChecks, exports, now }),
    book: bookArea,
    models: modelHandlers({ store, exports, emit, teams: team, teamCache: teamModels }),
    batches: batchHandlers({ store, batches, exports }),
    attention: attentionHandlers({
      store,
      sources: [...ownSignalSources(store), restrictedOrderSignals(store)],
      now,
    }),
    restrictions: restrictionHandlers({
      store,
      restrictions: new Restrictions(store, now),
      exports,
    }),
    team: teamHandlers({ store, connections, teams: team, now }),
    app: {
      ...appStatusHandlers({ store, connections, secretStore: options.secretStore }),
      firstScreen: firstScreenHandler({ profiles: profileArea, book: bookArea }),
    },
  };

  // Start-up: exports a killed process left half-written lose their hidden temporary files;
  // executions cut off mid-flight become unknown (or withdrawn, when never sent); versions still
  // rebalancing are followed again, once the built-in sandbox has its new address and secret.
  removeUnfinishedExports(partial, [exportsDir, ...(options.exportFolders ?? [])], log);
  recovery.reconcileAtStartup(computerRestartedSince(store.settings));
  // After the journal's: a batch's item that may have gone out is settled from it; none unsent is sent.
  batches.settleAtStartup();
  await sandbox
    .resume()
    .catch((error: unknown) =>
      log.error('The built-in sandbox could not resume', errorFields(error)),
    );
  tracking.resumeActive();
  team.listenAll();
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
  // The walk of the activity log waits for the first screen's calls and is put off by them (not
  // by asking for its result): null until a call came.
  let lastCall: number | null = null;
  const stopCheckWait = activityChecks.checkAfterStart(
    log,
    () => closed,
    () => lastCall,
  );

  return {
    // Asking for the walk's result is no reason to put it off.
    ...guarded(handlers, log, (channel) => {
      if (channel !== 'activity.lastCheck') lastCall = Date.now();
      else lastCall ??= 0;
    }),
    store,
    execution,
    recovery,
    batchFlow: batches,
    teams: team,
    teamClaims: teamGate,
    dataFolder,
    knownSecrets,
    log,
    subscribe: (listener) => events.add(listener),
    async close() {
      if (closed) return;
      closed = true;
      stopCheckWait();
      tracking.stopAll();
      batches.close();
      book.close();
      teamGate.close();
      await team.close();
      events.clear();
      await connections.closeAll();
      await sandbox.close();
      await folder.close();
    },
  };
}
