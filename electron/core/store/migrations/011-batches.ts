import type { Migration } from './types';

/**
 * Batches: one model revision reviewed once for many strategies of a profile, then each included
 * strategy executed through the one execution flow (docs/batches.md).
 *
 * A batch's items are its strategies in the order they are sent (`position`), each with the
 * rows reviewed and the plan key its execution must still match. An item moves
 * ready -> sending -> accepted | refused | unknown | skipped, or ends not-sent (cancelled,
 * stopped at a failure, or the app stopped before sending it: review again). `sending` is
 * written before the execution is journaled, so a restart finds every item that may have gone
 * out and settles it from the journal; every item still ready then is not sent, ever, without a
 * new review. Decimals are TEXT; the review and the confirmation shown are JSON.
 */
const migration: Migration = {
  version: 11,
  name: 'batches',
  up(db) {
    db.exec(`
      CREATE TABLE batches (
        id TEXT PRIMARY KEY NOT NULL,
        profile_id TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        model_id TEXT NOT NULL REFERENCES models (id),
        revision_id TEXT NOT NULL REFERENCES model_revisions (id),
        state TEXT NOT NULL CHECK (state IN
          ('reviewed', 'sending', 'sent', 'cancelled', 'halted', 'stopped', 'expired')),
        stop_at_first_failure INTEGER NOT NULL DEFAULT 0 CHECK (stop_at_first_failure IN (0, 1)),
        concurrency INTEGER NOT NULL DEFAULT 2 CHECK (concurrency BETWEEN 1 AND 8),
        sells_whole TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        sending_over_at TEXT,
        ended_at TEXT,
        review_seq INTEGER,
        end_seq INTEGER
      );
      CREATE INDEX batches_by_profile ON batches (profile_id, created_at DESC, id);

      CREATE TABLE batch_items (
        batch_id TEXT NOT NULL REFERENCES batches (id) ON DELETE CASCADE,
        position INTEGER NOT NULL CHECK (position >= 0),
        strategy_id TEXT NOT NULL,
        strategy_name TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('excluded', 'unticked', 'ready', 'sending',
          'accepted', 'refused', 'unknown', 'skipped', 'not-sent')),
        exclusion_kind TEXT,
        reason TEXT,
        rows TEXT NOT NULL,
        plan_key TEXT,
        needs_acknowledgement INTEGER NOT NULL DEFAULT 0,
        acknowledged INTEGER NOT NULL DEFAULT 0,
        review TEXT,
        preview TEXT,
        journal_id TEXT,
        version_id TEXT,
        error_kind TEXT,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (batch_id, position),
        UNIQUE (batch_id, strategy_id)
      ) WITHOUT ROWID;
      CREATE INDEX batch_items_by_version ON batch_items (version_id) WHERE version_id IS NOT NULL;
    `);
  },
};

export default migration;
