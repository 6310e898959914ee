import type { Database } from 'better-sqlite3';
import { StoreError } from './errors';
import { MIGRATIONS, type Migration } from './migrations';

// Running the migrations: migrations/ holds only the steps and imports nothing of the store.

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
