import type { Migration } from './types';

/**
 * What two processes on one data folder can never both win, held by the database itself rather
 * than by a lock file's name (a cleanup script or a sync tool may delete that file):
 *
 * - At most one execution of a strategy in flight (pending, sent or unknown) per profile.
 * - A draft's claim: each execution of a draft names the version the draft had become when it
 *   was claimed (`<draft id> after <version id>`, or `after none` for its first), and no two
 *   live executions (in flight or accepted) hold the same claim. "Execute again" names a newer
 *   version, so it claims anew; a refused or dismissed execution leaves its claim free.
 * - The process holding the data folder: one row, naming it (pid, host, app) and the lock file
 *   it holds, so a second process finds the first even when that file was deleted.
 *
 * Entries journaled before this migration have no claim (NULL) and take no part in the second
 * index. Two entries of one strategy in flight cannot exist in a file the app wrote (its check
 * and insert were already one IMMEDIATE transaction); a file edited by hand to hold them fails
 * this migration and is left at schema 5, with the reason.
 */
const migration: Migration = {
  version: 6,
  name: 'claims',
  up(db) {
    const doubled = db
      .prepare<[], { profile_id: string; strategy_id: string }>(
        `SELECT profile_id, strategy_id FROM execution_journal
         WHERE state IN ('pending', 'sent', 'unknown')
         GROUP BY profile_id, strategy_id HAVING count(*) > 1 LIMIT 1`,
      )
      .get();
    if (doubled)
      throw new Error(
        `strategy ${doubled.strategy_id} has two executions whose outcome is not known in the ` +
          'journal, which the app never writes',
      );
    db.exec(`
      ALTER TABLE execution_journal ADD COLUMN draft_claim TEXT;
      CREATE UNIQUE INDEX journal_one_in_flight ON execution_journal (profile_id, strategy_id)
        WHERE state IN ('pending', 'sent', 'unknown');
      CREATE UNIQUE INDEX journal_draft_claims ON execution_journal (draft_claim)
        WHERE draft_claim IS NOT NULL AND state IN ('pending', 'sent', 'unknown', 'accepted');

      CREATE TABLE data_folder_holder (
        slot INTEGER PRIMARY KEY CHECK (slot = 1),
        holder TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        app TEXT NOT NULL,
        started_at TEXT NOT NULL,
        address TEXT,
        lock_file TEXT NOT NULL
      );
    `);
  },
};

export default migration;
