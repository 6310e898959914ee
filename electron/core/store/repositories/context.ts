import type { Database } from 'better-sqlite3';

/** What every repository is built from: the one writer connection and the clock. */
export interface RepositoryContext {
  readonly db: Database;
  /** ISO 8601 UTC timestamp for created_at / updated_at / synced_at columns. */
  readonly now: () => string;
}
