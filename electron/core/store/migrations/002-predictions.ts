import type { Migration } from './types';

/**
 * What the app predicted when a draft was executed, and where the service's answer differed.
 * One row per confirmed execution: it also marks the draft with the version it became.
 * And when the strategy was last seen settled on a known target (see target_baselines).
 * Predictions and differences are JSON of decimal strings, exactly as predicted and received.
 */
const migration: Migration = {
  version: 2,
  name: 'predictions',
  up(db) {
    db.exec(`
      CREATE TABLE execution_predictions (
        id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        strategy_id TEXT NOT NULL,
        draft_id TEXT REFERENCES drafts (id) ON DELETE SET NULL,
        journal_id TEXT REFERENCES execution_journal (id) ON DELETE SET NULL,
        request_body TEXT NOT NULL,
        known_version_id TEXT,
        target_state TEXT NOT NULL CHECK (target_state IN ('known', 'unknown', 'stale')),
        prediction TEXT NOT NULL,
        version_id TEXT,
        differences TEXT,
        created_at TEXT NOT NULL,
        compared_at TEXT
      );
      CREATE INDEX predictions_by_draft ON execution_predictions (draft_id, created_at);
      CREATE INDEX predictions_by_journal ON execution_predictions (journal_id);
      CREATE INDEX predictions_by_version ON execution_predictions (profile_id, version_id);

      -- The strategy's update time first seen after a known version ended, for a version whose
      -- orders carry no fill time: a later update means the strategy changed elsewhere.
      CREATE TABLE target_baselines (
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        strategy_id TEXT NOT NULL,
        version_id TEXT NOT NULL,
        strategy_updated_at TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (profile_id, strategy_id, version_id)
      ) WITHOUT ROWID;
    `);
  },
};

export default migration;
