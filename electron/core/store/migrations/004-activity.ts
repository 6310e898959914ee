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
      CREATE INDEX activity_profile ON activity (profile_id, seq);
      CREATE INDEX activity_strategy ON activity (profile_id, strategy_id, seq);
      CREATE INDEX activity_kind ON activity (profile_id, kind, seq);
      CREATE INDEX activity_strategy_kind ON activity (profile_id, strategy_id, kind, seq);
      CREATE INDEX activity_day ON activity (profile_id, at);
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
