import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { makePrivate } from '../files/permissions';
import { activityRepository, type ActivityRepository } from './repositories/activity';
import { StoreError } from './errors';
import { walSync } from './wal-sync';
import { APPLICATION_ID, LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations';
import type { Migration } from './migrations';
import { applyMigrations, schemaVersionOf } from './migrate';
import { bookRepository, type BookRepository } from './repositories/book';
import { batchesRepository, type BatchesRepository } from './repositories/batches';
import { draftsRepository, type DraftsRepository } from './repositories/drafts';
import { failuresRepository, type FailuresRepository } from './repositories/failures';
import { holderRepository, type HolderRepository } from './repositories/holder';
import { journalRepository, type JournalRepository } from './repositories/journal';
import { modelsRepository, type ModelsRepository } from './repositories/models';
import { predictionsRepository, type PredictionsRepository } from './repositories/predictions';
import { profilesRepository, type ProfilesRepository } from './repositories/profiles';
import { restrictionsRepository, type RestrictionsRepository } from './repositories/restrictions';
import {
  readOrderReportSnapshot,
  iterateOrderReportRows,
  type OrderReportQuery,
  type OrderReportSnapshot,
  type OrderReportRow,
} from './repositories/reports';
import { settingsRepository, type SettingsRepository } from './repositories/settings';
import { strategiesRepository, type StrategiesRepository } from './repositories/strategies';
import { attentionRepository, type AttentionRepository } from './repositories/attention';
import { teamConnectionsRepository, type TeamConnectionsRepository } from './repositories/teams';
import { unexecutedRepository, type UnexecutedRepository } from './repositories/unexecuted';
import { versionsRepository, type VersionsRepository } from './repositories/versions';

export interface StoreOptions {
  /** Path of a better_sqlite3.node built for the running runtime (Electron's ABI in the app). */
  nativeBinding?: string;
  /** Clock for created_at / updated_at / synced_at (ISO 8601 UTC). */
  now?: () => string;
  /** Tests only: the migrations to apply and where to stop. */
  migrations?: readonly Migration[];
  targetVersion?: number;
}

export interface Store {
  readonly path: string;
  readonly schemaVersion: number;
  readonly profiles: ProfilesRepository;
  readonly strategies: StrategiesRepository;
  readonly versions: VersionsRepository;
  readonly drafts: DraftsRepository;
  readonly journal: JournalRepository;
  readonly settings: SettingsRepository;
  readonly predictions: PredictionsRepository;
  /** Unexecuted versions known to stand in the way of an execution. */
  readonly unexecuted: UnexecutedRepository;
  /** Failed executions and the manager's acknowledgements of them. */
  readonly failures: FailuresRepository;
  /** The process holding the data folder (data-folder/holder.ts). */
  readonly holder: HolderRepository;
  /** The append-only activity log (electron/core/activity). */
  readonly activity: ActivityRepository;
  /** The book's derived rows, tags and failed reads (electron/core/book). */
  readonly book: BookRepository;
  /** The model library (app-wide) and which strategies follow a model. */
  readonly models: ModelsRepository;
  /** Batches: one model revision reviewed and executed for many strategies. */
  readonly batches: BatchesRepository;
  /** The attention queue's snapshots, schedules and signals set aside (core/attention). */
  readonly attention: AttentionRepository;
  /** Restrictions, the list each execution was armed with, and restricted orders found. */
  readonly restrictions: RestrictionsRepository;
  /** Each profile's team store, when it joined one (team/connection.ts). */
  readonly teams: TeamConnectionsRepository;
  readonly reports: {
    /** See repositories/reports.ts: streams from its own read-only connection. */
    iterateOrderReportRows(query: OrderReportQuery): Generator<OrderReportRow, void, undefined>;
    iterateOrderReportRows(
      query: OrderReportQuery,
      options: { raw: true },
    ): Generator<(string | null)[], void, undefined>;
    /** One snapshot of the orders, read by `read` (the export's lines: reports/lines.ts). */
    readSnapshot<T>(
      query: OrderReportQuery,
      read: (snapshot: OrderReportSnapshot) => Iterable<T>,
    ): Generator<T, void, undefined>;
  };
  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T;
  /**
   * Resolves once every commit made before the call survives a power cut (wal-sync.ts): an
   * fsync of the WAL off the event loop, shared by the commits that wait at the same time.
   */
  durable(): Promise<void>;
  close(): void;
}

/**
 * Opens (creating if needed) the app's SQLite file and brings its schema up to date.
 * Refuses, with a StoreError a manager can act on, a file that is not SQLite, a SQLite file of
 * another program, or one written by a newer app.
 */
export function openStore(path: string, options: StoreOptions = {}): Store {
  const migrations = options.migrations ?? MIGRATIONS;
  const known = migrations[migrations.length - 1]?.version ?? 0;
  createPrivately(path);
  const db = new Database(
    path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  let schemaVersion: number;
  try {
    // Check what the file is before changing anything in it.
    schemaVersion = inspect(db, path, known);
    startupCheck(path, () => {
      checkIntegrity(db, path);
      db.pragma('journal_mode = WAL');
      // NORMAL in WAL mode survives an app crash; the journal writes with FULL (power loss too).
      db.pragma('synchronous = NORMAL');
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      // A transaction's statement journal stays in memory: past 64 KiB SQLite otherwise writes
      // it to a temporary file, a write per page touched on the event loop (an execution's answer
      // touches about fifty: a batch of 100 spent a fifth of its host time there).
      db.pragma('temp_store = MEMORY');
      schemaVersion = applyMigrations(db, migrations, options.targetVersion ?? known);
      probeWrite(db);
    });
    // SQLite gives -wal and -shm the database's mode; files an older run left looser are narrowed.
    for (const suffix of ['-wal', '-shm']) makePrivate(path + suffix);
  } catch (error) {
    db.close();
    throw error;
  }

  const ctx = { db, now: options.now ?? (() => new Date().toISOString()) };
  const nativeBinding = options.nativeBinding;
  const profiles = profilesRepository(ctx);
  const activity = activityRepository(ctx);
  const wal = walSync(`${path}-wal`);
  return {
    path,
    schemaVersion,
    profiles,
    strategies: strategiesRepository(ctx),
    versions: versionsRepository(ctx),
    drafts: draftsRepository(ctx),
    journal: journalRepository(ctx),
    settings: settingsRepository(ctx),
    predictions: predictionsRepository(ctx),
    unexecuted: unexecutedRepository(ctx),
    failures: failuresRepository(ctx),
    holder: holderRepository(ctx),
    activity,
    book: bookRepository(ctx),
    models: modelsRepository(ctx),
    batches: batchesRepository(ctx),
    attention: attentionRepository(ctx),
    restrictions: restrictionsRepository(ctx),
    teams: teamConnectionsRepository(ctx),
    reports: {
      iterateOrderReportRows: ((query: OrderReportQuery, opts?: { raw: true }) =>
        iterateOrderReportRows(
          path,
          nativeBinding,
          query,
          opts as { raw: true },
        )) as Store['reports']['iterateOrderReportRows'],
      readSnapshot: (query, read) => readOrderReportSnapshot(path, nativeBinding, query, read),
    },
    // IMMEDIATE: the write lock is taken at the start, waiting out another process's write
    // (busy_timeout); a deferred one that read first fails at its first write instead
    // (SQLITE_BUSY_SNAPSHOT).
    transaction: (fn) => db.transaction(fn).immediate(),
    durable: () => wal.flushed(),
    close: () => {
      db.close();
      void wal.close();
    },
  };
}

/**
 * The database file is created 0600 before SQLite opens it (an empty file is a valid new
 * database), so it is never readable by others, not even for a moment; an existing one is
 * narrowed to 0600.
 */
function createPrivately(path: string): void {
  if (path === ':memory:') return;
  try {
    closeSync(openSync(path, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  makePrivate(path);
}

/**
 * The cache's history: tables that grow with every version, order and action the app has seen
 * (a busy data file holds millions of their rows). Nothing on the way to the first screen reads
 * them, so start-up does not read them whole either: a damaged page there fails the one read
 * that meets it (a version's detail, an export, the activity log's check), not the start.
 */
export const HISTORY_TABLES: readonly string[] = [
  'versions',
  'orders',
  'version_positions',
  'version_status_seen',
  'execution_predictions',
  'target_baselines',
  'activity',
];

/**
 * A damaged page is found now, not by the first screen that reads it (which would fail every
 * call with an internal error): quick_check reads every page and index of the tables start-up
 * and the first screens read, without the slower cross-checks of integrity_check. Its cost does
 * not grow with the cache's history (HISTORY_TABLES).
 */
function checkIntegrity(db: Database.Database, path: string): void {
  const tables = db
    .prepare<[], string>(
      `SELECT name FROM sqlite_schema WHERE type = 'table'
       AND name NOT IN (${HISTORY_TABLES.map((t) => `'${t}'`).join(', ')})`,
    )
    .pluck()
    .all();
  for (const table of tables) {
    const rows = db.pragma(`quick_check("${table.replace(/"/g, '""')}")`) as {
      quick_check: string;
    }[];
    if (rows.length !== 1 || rows[0]?.quick_check !== 'ok') throw damaged(path);
  }
}

/**
 * A file that opens but cannot be written (read-only file, read-only disk) is found now, not by
 * the first save: a write that is rolled back leaves the file as it was.
 */
function probeWrite(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec('CREATE TABLE temp_write_probe (x); DROP TABLE temp_write_probe;');
  } finally {
    db.exec('ROLLBACK');
  }
}

function damaged(path: string, cause?: unknown): StoreError {
  return new StoreError(
    'store-damaged',
    `The data file ${path} is damaged: part of it cannot be read, so Strategy desk will not ` +
      `use it. Quit the app, move that file (and any files next to it whose names end in ` +
      `-wal or -shm) to a safe place, and start again to begin with an empty data file. Keep ` +
      `the moved file: it may be recoverable. Client secrets are in the system keychain, not in ` +
      `this file.`,
    { cause },
  );
}

/** The start-up steps, with SQLite's own failures turned into what a manager can act on. */
function startupCheck(path: string, run: () => void): void {
  try {
    run();
  } catch (cause) {
    // A migration that failed for want of writing is a read-only file, not a failed update.
    const sqlite = cause instanceof StoreError ? cause.cause : cause;
    const code = (sqlite as { code?: string } | undefined)?.code ?? '';
    if (cause instanceof StoreError && !/^SQLITE_(READONLY|PERM|CANTOPEN|AUTH)/.test(code))
      throw cause;
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') throw damaged(path, cause);
    if (/^SQLITE_(READONLY|PERM|CANTOPEN|AUTH)/.test(code)) {
      throw new StoreError(
        'store-read-only',
        `Strategy desk cannot save to its data file ${path}: the file, its folder or the disk ` +
          `is read-only for this user. Make the file and its folder writable for your account ` +
          `(or choose another data folder), then start the app again. Nothing was changed.`,
        { cause },
      );
    }
    throw cause;
  }
}

function inspect(db: Database.Database, path: string, known: number): number {
  let version: number;
  let applicationId: number;
  let tables: number;
  try {
    version = schemaVersionOf(db);
    applicationId = db.pragma('application_id', { simple: true }) as number;
    tables = (db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n;
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT')
      throw new StoreError(
        'store-not-sqlite',
        `The data file ${path} is not a Strategy desk database (it is not a SQLite file, or it ` +
          `is damaged). Choose another data folder, or move this file away to start afresh.`,
        { cause },
      );
    throw cause;
  }
  if ((applicationId !== 0 && applicationId !== APPLICATION_ID) || (version === 0 && tables > 0))
    throw new StoreError(
      'store-not-ours',
      `The data file ${path} is a SQLite database of another program, not of Strategy desk. ` +
        `Choose another data folder.`,
    );
  if (version > known)
    throw new StoreError(
      'store-newer-schema',
      `This data folder was written by a newer Strategy desk (schema ${version}; this app knows ` +
        `up to ${known}). Update the app to open it, or choose another data folder.`,
    );
  return version;
}

export { LATEST_SCHEMA_VERSION };
