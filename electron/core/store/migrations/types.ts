import type { Database } from 'better-sqlite3';

/** One schema step. `up` runs inside a transaction together with the user_version bump. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  up(db: Database): void;
}

/** Written by 001 so a SQLite file from another program is told apart from ours ("SDSK"). */
export const APPLICATION_ID = 0x5344534b;
