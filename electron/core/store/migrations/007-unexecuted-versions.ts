import type { Migration } from './types';

/**
 * The unexecuted versions the app knows to stand in the way of a new execution: imported here,
 * named by the service when it refused an execution (possibly never read), or read before a
 * delete. The screens show them before the manager meets the service's refusal. A version
 * named but never read has no dates yet (read_at null).
 *
 * Versions already in the history and never executed are taken over, unless an executed version
 * of the same strategy came after them (the service executes nothing while one is in the way).
 */
const migration: Migration = {
  version: 7,
  name: 'unexecuted-versions',
  up(db) {
    db.exec(`
      CREATE TABLE unexecuted_versions (
        profile_id TEXT NOT NULL,
        strategy_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        learned_from TEXT NOT NULL CHECK (learned_from IN ('imported', 'named', 'read')),
        learned_at TEXT NOT NULL,
        scheduled_for TEXT,
        inserted_at TEXT,
        read_at TEXT,
        PRIMARY KEY (profile_id, version_id),
        FOREIGN KEY (profile_id, strategy_id)
          REFERENCES strategies (profile_id, id) ON DELETE CASCADE
      );
      CREATE INDEX unexecuted_versions_by_strategy
        ON unexecuted_versions (profile_id, strategy_id, learned_at, version_id);

      INSERT INTO unexecuted_versions
        (profile_id, strategy_id, version_id, learned_from, learned_at, scheduled_for,
         inserted_at, read_at)
      SELECT v.profile_id, v.strategy_id, v.id, 'imported', v.synced_at, v.scheduled_for,
             v.inserted_at, v.synced_at
      FROM versions v
      WHERE v.executed_at IS NULL
        AND NOT EXISTS (
          SELECT 1 FROM versions e
          WHERE e.profile_id = v.profile_id AND e.strategy_id = v.strategy_id
            AND e.executed_at IS NOT NULL AND e.executed_at > v.inserted_at
        );
    `);
  },
};

export default migration;
