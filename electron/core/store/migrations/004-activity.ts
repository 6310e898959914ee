import type { Migration } from './types';

/**
 * The activity log: one append-only, hash-chained record per profile of every action that reached
 * the service (docs/activity.md). No foreign keys on purpose: an entry outlives the draft,
 * strategy or profile it names. Triggers refuse any change or removal through SQLite, so only an
 * edit of the file itself can alter an entry, and the chain check finds that.
 */
const migration: Migration = {
  version: 4,
  name: 'activity',
  up(db) {
    db.exec(`
      CREATE TABLE activity (
        seq INTEGER PRIMARY KEY,
        profile_id TEXT NOT NULL,
        chain_index INTEGER NOT NULL,
        at TEXT NOT NULL,
        kind TEXT NOT NULL,
        strategy_id TEXT,
        version_id TEXT,
        refers_to INTEGER,
        payload TEXT NOT NULL,
        previous_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        UNIQUE (profile_id, chain_index)
      );
      -- The view reads a profile's or a strategy's entries newest first; a kind or day filter
      -- reads those in order and skips what it leaves out. Each index is written by every
      -- append inside the execution's durable commit, so only the ones the reads need are here.
      CREATE INDEX activity_profile ON activity (profile_id, seq);
      CREATE INDEX activity_strategy ON activity (profile_id, strategy_id, seq);
      CREATE INDEX activity_version ON activity (profile_id, version_id, kind)
        WHERE version_id IS NOT NULL;
      CREATE INDEX activity_refers ON activity (refers_to) WHERE refers_to IS NOT NULL;
      CREATE INDEX activity_execution ON activity (json_extract(payload, '$.journalId'))
        WHERE kind = 'execution-sent';
      CREATE TRIGGER activity_no_update BEFORE UPDATE ON activity
      BEGIN
        SELECT RAISE(ABORT, 'The activity log is append-only: an entry cannot be changed.');
      END;
      CREATE TRIGGER activity_no_delete BEFORE DELETE ON activity
      BEGIN
        SELECT RAISE(ABORT, 'The activity log is append-only: an entry cannot be removed.');
      END;
    `);
  },
};

export default migration;
