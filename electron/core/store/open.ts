import Database from 'better-sqlite3';
import { StoreError } from './errors';
import {
  APPLICATION_ID,
  LATEST_SCHEMA_VERSION,
  MIGRATIONS,
  applyMigrations,
  schemaVersionOf,
} from './migrations';
import type { Migration } from './migrations';
import { draftsRepository, type DraftsRepository } from './repositories/drafts';
import { journalRepository, type JournalRepository } from './repositories/journal';
import { profilesRepository, type ProfilesRepository } from './repositories/profiles';
import {
  iterateOrderReportLines,
  iterateOrderReportRows,
  type OrderReportQuery,
  type OrderReportRow,
} from './repositories/reports';
import { settingsRepository, type SettingsRepository } from './repositories/settings';
import { strategiesRepository, type StrategiesRepository } from './repositories/strategies';
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
  readonly reports: {
    /** See repositories/reports.ts: streams from its own read-only connection. */
    iterateOrderReportRows(query: OrderReportQuery): Generator<OrderReportRow, void, undefined>;
    iterateOrderReportRows(
      query: OrderReportQuery,
      options: { raw: true },
    ): Generator<(string | null)[], void, undefined>;
    /** The export's path: lines for writeOrderReportLines, see repositories/reports.ts. */
    iterateOrderReportLines(query: OrderReportQuery): Generator<string, void, undefined>;
  };
  /** Runs `fn` in one transaction (nested calls become savepoints). */
  transaction<T>(fn: () => T): T;
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
  const db = new Database(
    path,
    options.nativeBinding ? { nativeBinding: options.nativeBinding } : {},
  );
  let schemaVersion: number;
  try {
    // Check what the file is before changing anything in it.
    schemaVersion = inspect(db, path, known);
    db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode survives an app crash; the journal writes with FULL (power loss too).
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    schemaVersion = applyMigrations(db, migrations, options.targetVersion ?? known);
  } catch (error) {
    db.close();
    throw error;
  }

  const ctx = { db, now: options.now ?? (() => new Date().toISOString()) };
  const nativeBinding = options.nativeBinding;
  return {
    path,
    schemaVersion,
    profiles: profilesRepository(ctx),
    strategies: strategiesRepository(ctx),
    versions: versionsRepository(ctx),
    drafts: draftsRepository(ctx),
    journal: journalRepository(ctx),
    settings: settingsRepository(ctx),
    reports: {
      iterateOrderReportRows: ((query: OrderReportQuery, opts?: { raw: true }) =>
        iterateOrderReportRows(
          path,
          nativeBinding,
          query,
          opts as { raw: true },
        )) as Store['reports']['iterateOrderReportRows'],
      iterateOrderReportLines: (query) => iterateOrderReportLines(path, nativeBinding, query),
    },
    transaction: (fn) => db.transaction(fn)(),
    close: () => db.close(),
  };
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
        'not-sqlite',
        `The data file ${path} is not a Strategy desk database (it is not a SQLite file, or it ` +
          `is damaged). Choose another data folder, or move this file away to start afresh.`,
        { cause },
      );
    throw cause;
  }
  if ((applicationId !== 0 && applicationId !== APPLICATION_ID) || (version === 0 && tables > 0))
    throw new StoreError(
      'not-ours',
      `The data file ${path} is a SQLite database of another program, not of Strategy desk. ` +
        `Choose another data folder.`,
    );
  if (version > known)
    throw new StoreError(
      'newer-schema',
      `This data folder was written by a newer Strategy desk (schema ${version}; this app knows ` +
        `up to ${known}). Update the app to open it, or choose another data folder.`,
    );
  return version;
}

export { LATEST_SCHEMA_VERSION };
