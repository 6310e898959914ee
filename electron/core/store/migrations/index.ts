import type { Database } from 'better-sqlite3';
import { StoreError } from '../errors';
import type { Migration } from './types';
import initial from './001-initial';
import predictions from './002-predictions';
import statusSeen from './003-status-seen';
import activity from './004-activity';
import statusBarIndexes from './005-status-bar-indexes';
import claims from './006-claims';
import unexecutedVersions from './007-unexecuted-versions';
import failuresAcknowledged from './008-failures-acknowledged';
import book from './009-book';
import models from './010-models';
import batches from './011-batches';
import batchStopReason from './012-batch-stop-reason';

export { APPLICATION_ID, type Migration } from './types';

/** Every migration the app knows, in order. Add a file per schema change; never edit a shipped one. */
export const MIGRATIONS: readonly Migration[] = [
  initial,
  predictions,
  statusSeen,
  activity,
  statusBarIndexes,
  claims,
  unexecutedVersions,
  failuresAcknowledged,
  book,
  models,
  batches,
  batchStopReason,
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function schemaVersionOf(db: Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Applies the migrations above the file's user_version, each in its own transaction, up to
 * `target` (tests stop early to check a later migration from its predecessor's schema).
 */
export function applyMigrations(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
  target = migrations[migrations.length - 1]?.version ?? 0,
): number {
  let current = schemaVersionOf(db);
  for (const migration of migrations) {
    if (migration.version <= current || migration.version > target) continue;
    const step = db.transaction(() => {
      migration.up(db);
      // user_version lives in the header page: it commits or rolls back with the step.
      db.pragma(`user_version = ${migration.version}`);
    });
    try {
      step();
    } catch (cause) {
      throw new StoreError(
        'store-migration-failed',
        `Updating the data file to schema ${migration.version} (${migration.name}) failed: ` +
          `${(cause as Error).message}. The file was left at schema ${current}.`,
        { cause },
      );
    }
    current = migration.version;
  }
  return current;
}
